// saveChartsPng: each chart in a QChartView of its share of the width, painted into one image.
#include "ui/plot/chart_png.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>
#include <memory>
#include <vector>

namespace syncscope::ui {

bool saveChartsPng(const QList<QChart*>& charts, const QString& caption, const QString& path, QString* error,
                   int width, int height) {
    std::vector<std::unique_ptr<QChartView>> views;  // each owns its chart
    for (QChart* chart : charts) views.push_back(std::make_unique<QChartView>(chart));
    QPixmap image(width, height);
    image.fill(Qt::white);
    QPainter painter(&image);
    int top = 0;
    if (!caption.isEmpty()) {
        const QRect box(16, 8, width - 32, height / 5);
        QRect used;
        painter.drawText(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, caption, &used);
        top = used.bottom() + 8;
    }
    const int each = charts.isEmpty() ? width : width / int(charts.size());
    for (size_t i = 0; i < views.size(); ++i) {
        views[i]->setRenderHint(QPainter::Antialiasing);
        views[i]->resize(each, height - top);
        painter.drawPixmap(int(i) * each, top, views[i]->grab());
    }
    painter.end();
    if (!image.save(path, "PNG")) {
        *error = QCoreApplication::translate("ExperimentPlots", "cannot write %1 (is the folder there and writable?)").arg(path);
        return false;
    }
    return true;
}

}  // namespace syncscope::ui
