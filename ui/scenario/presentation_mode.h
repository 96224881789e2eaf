// PresentationMode: large type for a projector. Scales chart titles, axes and legends and chosen
// widgets by one factor, hides the widgets with fine controls, and puts everything back on leave().
#pragma once

#include <QList>

#include <functional>
#include <vector>

class QChartView;
class QTableView;
class QWidget;

namespace syncscope::ui {

class PresentationMode {
public:
    // The console's compact chart fonts (8 to 10 pt) at 12 to 15 pt: readable from the back of a
    // room at 1280x720, with room left for six charts.
    static constexpr double kDefaultScale = 1.5;

    explicit PresentationMode(double scale = kDefaultScale) : m_scale(scale) {}
    ~PresentationMode() = default;
    PresentationMode(const PresentationMode&) = delete;
    PresentationMode& operator=(const PresentationMode&) = delete;

    /// Enlarges and hides; calling it while active first leaves.
    void enter(const QList<QChartView*>& charts, const QList<QWidget*>& enlarge, const QList<QTableView*>& tables,
               const QList<QWidget*>& hide);
    /// While active: hides these columns of `table` (the ones a class need not read); leave() shows them.
    void hideColumns(QTableView* table, const QList<int>& columns);
    /// Restores every font and shows what enter() hid (things deleted meanwhile are skipped).
    void leave();
    bool active() const { return m_active; }
    double scale() const { return m_scale; }

private:
    void enlargeChart(QChartView* view);
    void enlargeWidget(QWidget* widget);
    void enlargeTable(QTableView* table);

    double m_scale;
    bool m_active = false;
    std::vector<std::function<void()>> m_restore;  // run in reverse order on leave()
};

}  // namespace syncscope::ui
