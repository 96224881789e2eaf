// Saving what a widget shows (the charts panel) as an image file: PNG through QWidget::grab, SVG
// through QSvgGenerator, chosen by the file's suffix.
#pragma once

#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace syncscope::ui {

// Empty on success, else a message for the person (unknown suffix, unwritable file).
QString exportWidgetImage(QWidget& widget, const QString& path);

// A save dialog; the answer gets `suffix` (no dot) when it has none. Empty: cancelled.
QString askExportPath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix);

// "Export charts" → PNG…, SVG… under `file`: each asks for a path and hands it to `exportTo`.
void addChartExportMenu(QMenu* file, QWidget* dialogParent, const std::function<void(const QString& path)>& exportTo);

}  // namespace syncscope::ui
