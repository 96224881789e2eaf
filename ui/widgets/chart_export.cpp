// exportWidgetImage (see chart_export.h).
#include "ui/widgets/chart_export.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace syncscope::ui {

namespace {

struct ChartExport {
    Q_DECLARE_TR_FUNCTIONS(ChartExport)
};

QString writeSvg(QWidget& widget, const QString& path) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(widget.size());
    generator.setViewBox(widget.rect());
    generator.setTitle(ChartExport::tr("SyncScope charts"));
    QPainter painter;
    if (!painter.begin(&generator)) return ChartExport::tr("Cannot write %1: check that the folder is writable.").arg(path);
    widget.render(&painter);
    painter.end();
    return QString();
}

}  // namespace

QString exportWidgetImage(QWidget& widget, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) return writeSvg(widget, path);
    if (suffix != QLatin1String("png"))
        return ChartExport::tr("Cannot export charts to %1: the name must end in .png or .svg.").arg(path);
    if (!widget.grab().save(path, "PNG"))
        return ChartExport::tr("Cannot write %1: check that the folder is writable.").arg(path);
    return QString();
}

QString askExportPath(QWidget* parent, const QString& title, const QString& filter, const QString& suffix) {
    QString path = QFileDialog::getSaveFileName(parent, title, QString(), filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    return path;
}

void addChartExportMenu(QMenu* file, QWidget* dialogParent, const std::function<void(const QString& path)>& exportTo) {
    QMenu* charts = file->addMenu(ChartExport::tr("Export c&harts"));
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg")}) {
        const QString format = suffix.toUpper();
        charts->addAction(ChartExport::tr("%1…").arg(format), charts, [dialogParent, exportTo, suffix, format] {
            const QString path = askExportPath(dialogParent, ChartExport::tr("Export charts as %1").arg(format),
                                               ChartExport::tr("%1 images (*.%2)").arg(format, suffix), suffix);
            if (!path.isEmpty()) exportTo(path);
        });
    }
}

}  // namespace syncscope::ui
