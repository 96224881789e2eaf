// A chart (or several side by side) drawn into a PNG without a window: a QChartView never shown,
// grabbed into a pixmap (works offscreen).
#pragma once

#include <QList>
#include <QString>

class QChart;

namespace syncscope::ui {

/// Draws `charts` side by side, equal widths, under an optional caption (wrapped text), into a width
/// x height PNG at `path`; takes ownership of the charts. False (and *error) when it cannot be written.
bool saveChartsPng(const QList<QChart*>& charts, const QString& caption, const QString& path, QString* error,
                   int width, int height);

}  // namespace syncscope::ui
