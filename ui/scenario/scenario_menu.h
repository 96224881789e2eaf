// The "Scenarios" menu: one entry per shipped scenario (by its title) and "Open scenario file…".
#pragma once

#include <QCoreApplication>

#include <functional>

class QMenu;
class QWidget;

namespace syncscope::ui {

class ScenarioMenu {
    Q_DECLARE_TR_FUNCTIONS(ScenarioMenu)
public:
    /// Fills `menu`; `open` gets the chosen path (a resource or a file). `dialogParent` owns the file dialog.
    static void fill(QMenu* menu, QWidget* dialogParent, const std::function<void(const QString&)>& open);
};

}  // namespace syncscope::ui
