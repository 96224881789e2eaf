// reduceMinMax: at most two points per pixel column, the extremes inside the range kept, one
// neighbour outside on each side, and a million points down to a screenful with a spike intact.
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

#include "ui/model/series_reducer.h"

using syncscope::ui::reduceMinMax;

namespace {

QVector<QPointF> randomWalk(int n, quint32 seed) {
    QRandomGenerator random(seed);
    QVector<QPointF> points;
    double y = 0;
    for (int i = 0; i < n; ++i) {
        y += random.generateDouble() - 0.5;
        points.append(QPointF(0.01 * i, y));
    }
    return points;
}

bool sortedByX(const QVector<QPointF>& points) {
    return std::is_sorted(points.cbegin(), points.cend(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
}

}  // namespace

class TestSeriesReducer : public QObject {
    Q_OBJECT

private slots:
    void atMostTwoPointsPerColumn() {
        const QVector<QPointF> points = randomWalk(20000, 1);
        const double xMin = 20.0, xMax = 150.0;
        const int columns = 300;
        const QVector<QPointF> out = reduceMinMax(points, xMin, xMax, columns);
        QVERIFY(sortedByX(out));
        std::map<int, int> perColumn;  // columns computed as the reducer does, to the last bit
        for (const QPointF& p : out)
            if (p.x() >= xMin && p.x() <= xMax)
                ++perColumn[std::min(static_cast<int>((p.x() - xMin) * (columns / (xMax - xMin))), columns - 1)];
        QCOMPARE(static_cast<int>(perColumn.size()), columns);  // dense data: no column empty
        for (const auto& [column, count] : perColumn) QVERIFY2(count <= 2, qPrintable(QString::number(column)));
    }

    void extremesInsideTheRangeSurvive() {
        const QVector<QPointF> points = randomWalk(50000, 2);
        const double xMin = 100.0, xMax = 400.0;
        const QVector<QPointF> out = reduceMinMax(points, xMin, xMax, 97);
        QPointF low(0, qInf()), high(0, -qInf());
        for (const QPointF& p : points) {
            if (p.x() < xMin || p.x() > xMax) continue;
            if (p.y() < low.y()) low = p;
            if (p.y() > high.y()) high = p;
        }
        QVERIFY(out.contains(low));
        QVERIFY(out.contains(high));
    }

    void neighboursOutsideReachTheEdges() {
        QVector<QPointF> points;
        for (int i = 0; i < 100; ++i) points.append(QPointF(i, i % 7));
        QVector<QPointF> out = reduceMinMax(points, 10.5, 20.5, 4);
        QCOMPARE(out.first(), QPointF(10, 3));
        QCOMPARE(out.last(), QPointF(21, 0));
        for (int i = 1; i + 1 < out.size(); ++i) QVERIFY(out[i].x() > 10.5 && out[i].x() < 20.5);

        out = reduceMinMax(points, -5, 200, 1000);  // the whole series: nothing outside to add
        QCOMPARE(out, points);

        out = reduceMinMax(points, 40.2, 40.8, 10);  // no point inside: the line still crosses
        QCOMPARE(out, (QVector<QPointF>{QPointF(40, 5), QPointF(41, 6)}));

        out = reduceMinMax(points, 500, 600, 10);  // right of the data: only its last point
        QCOMPARE(out, (QVector<QPointF>{QPointF(99, 1)}));
    }

    void emptyInput() {
        QVERIFY(reduceMinMax({}, 0, 1, 100).isEmpty());
    }

    void oneColumnGivesMinAndMaxInOrder() {
        const QVector<QPointF> points{{0, 5}, {1, 9}, {2, 1}, {3, 4}, {4, 7}};
        QCOMPARE(reduceMinMax(points, 0, 4, 1), (QVector<QPointF>{QPointF(1, 9), QPointF(2, 1)}));
        QCOMPARE(reduceMinMax(points, 0, 4, 0), reduceMinMax(points, 0, 4, 1));
        const QVector<QPointF> flat{{0, 3}, {1, 3}, {2, 3}};
        QCOMPARE(reduceMinMax(flat, 0, 2, 1).size(), 1);
    }

    void aMillionPointsKeepTheirSpike() {
        constexpr int kCount = 1'000'000;
        constexpr int kColumns = 1000;
        QVector<QPointF> points;
        points.reserve(kCount);
        for (int i = 0; i < kCount; ++i) points.append(QPointF(i, std::sin(i * 1e-4)));
        const QPointF spike(654'321, 50.0);
        const QPointF dip(123'457, -50.0);
        points[static_cast<int>(spike.x())] = spike;
        points[static_cast<int>(dip.x())] = dip;
        const QVector<QPointF> out = reduceMinMax(points, 0, kCount - 1, kColumns);
        QVERIFY2(out.size() <= 2 * kColumns + 2, qPrintable(QString::number(out.size())));
        QVERIFY(out.contains(spike));
        QVERIFY(out.contains(dip));
        QVERIFY(sortedByX(out));
    }
};

QTEST_APPLESS_MAIN(TestSeriesReducer)
#include "test_series_reducer.moc"
