// ScenarioMenu (see scenario_menu.h).
#include "ui/scenario/scenario_menu.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "ui/scenario/scenario_catalog.h"
#include "ui/scenario/scenario_parser.h"

namespace syncscope::ui {

void ScenarioMenu::fill(QMenu* menu, QWidget* dialogParent, const std::function<void(const QString&)>& open) {
    for (const QString& path : shippedScenarioPaths()) {
        const ScenarioLoad load = ScenarioParser::load(path);
        // A shipped scenario that does not parse is a build mistake the tests catch; show its name anyway.
        const QString title = load.scenario ? load.scenario->title : QFileInfo(path).completeBaseName();
        QAction* action = menu->addAction(title, menu, [open, path] { open(path); });
        action->setToolTip(load.scenario ? load.scenario->description : load.error);
        action->setStatusTip(action->toolTip());
    }
    menu->addSeparator();
    menu->addAction(tr("&Open scenario file…"), menu, [dialogParent, open] {
        const QString path = QFileDialog::getOpenFileName(dialogParent, tr("Open scenario"), QString(),
                                                          tr("Scenarios (*.json);;All files (*)"));
        if (!path.isEmpty()) open(path);
    });
}

}  // namespace syncscope::ui
