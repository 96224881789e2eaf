// CompareWindow: several run recordings overlaid on the same charts (test accuracy, training loss,
// updates/s), one colour per run, aligned on the start of training or on each run's first event of
// a chosen kind (a mode change, a rollback, ...), with a table of each run's figures (time to a
// target accuracy, final accuracy, samples/s, staleness mean and p99, drops) that exports as CSV.
// Recordings are read on a pool thread; the window says what it is reading.
#pragma once

#include <QVector>
#include <QWidget>

#include "ui/model/run_curves.h"

class QChart;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace syncscope::ui {

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);

    /// Reads these recordings (on a pool thread) and adds them; errors are listed in the status.
    void addRecordings(const QStringList& paths);
    const QVector<RunCurves>& runs() const { return m_runs; }
    /// The event kind runs are aligned on (EVENT_START: the start of training).
    wire::EventKind alignment() const;
    void setAlignment(wire::EventKind kind);
    /// Where run `index` is drawn: its time shift (seconds subtracted), or empty when it has no event
    /// of the chosen kind (then it is drawn from its start and the table says so).
    std::optional<double> shiftOf(int index) const;
    /// Writes the table as CSV; false (and the reason) when the file cannot be written.
    bool exportCsv(const QString& path, QString* error) const;
    QTableWidget* table() const { return m_table; }
    QList<QChartView*> chartViews() const { return m_views; }

signals:
    /// All recordings asked for so far are read (or failed).
    void loaded();

private:
    void chooseRecordings();
    void chooseCsv();
    void added(const QVector<RunCurves>& runs, const QStringList& errors);
    void redraw();
    void fillTable();

    QVector<RunCurves> m_runs;
    QComboBox* m_align;
    QDoubleSpinBox* m_target;
    QLabel* m_status;
    QTableWidget* m_table;
    QList<QChartView*> m_views;
    QChart *m_accuracy, *m_loss, *m_updates;
    int m_pending = 0;
};

}  // namespace syncscope::ui
