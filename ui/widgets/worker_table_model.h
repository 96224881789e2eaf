// WorkerTableModel: one row per worker of the latest telemetry frame (state, group, throughput,
// staleness, drops, batch, slowdown); rows are updated in place while the worker set is unchanged.
// In grouped mode the group cell is editable: an edit asks for an explicit regrouping of all workers.
// The lag column says whether a worker lags chronically or now and then (ui/model/lag_classifier.h);
// SortRole gives every column's value as a number, so a sorting view puts the slowest first.
#pragma once

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QTimer>

#include <map>
#include <vector>

#include "ui/model/lag_classifier.h"
#include "ui/model/telemetry_frame.h"

class QFontMetrics;

namespace syncscope::ui {

class WorkerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, State, Group, SamplesPerSecond, Lag, Staleness, Dropped, Batch, Slowdown, ColumnCount };
    /// The engine's group count G (an int), for the group cell's editor.
    static constexpr int GroupCountRole = Qt::UserRole + 1;
    /// A number to sort by (the lag column: the worker's speed relative to the median worker).
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit WorkerTableModel(QObject* parent = nullptr);

    /// The figures of the same workers change on screen at most this often: a number redrawn 10
    /// times a second cannot be read, and repainting hundreds of rows is a good part of a frame.
    static constexpr int kRefreshIntervalMs = 500;

    /// A model reset at once when the set of workers changed; dataChanged at once when a worker's
    /// state or group changed, else at most every kRefreshIntervalMs (a frame held back is shown
    /// when the interval ends).
    void setFrame(const TelemetryFrame& frame);
    uint32_t workerId(int row) const { return m_rows.at(row).worker_id(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// A new group for a worker (Group column, grouped mode, 0..G-1): emits groupAssignmentEdited.
    /// The row shows the new group at once; the next tick shows what the engine made of it.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// The widest text the Slowdown column shows now: the widest factor ("10.0"), or a CPU limit's
    /// text where a worker reports one, as wide as `metrics` (the table's font) draws them (the
    /// steering panel keeps that much room beside each slider).
    QString widestSlowdownText(const QFontMetrics& metrics) const;

    /// Whether the engine runs the grouped mode (as of the last frame), and its G.
    bool groupsEditable() const { return m_grouped; }
    uint32_t groupCount() const { return m_groupCount; }

    static QString stateName(wire::WorkerState state);
    static QString lagName(ui::Lag lag);

signals:
    /// Every current worker's group (the edited one changed), and G.
    void groupAssignmentEdited(const std::map<uint32_t, uint32_t>& assignment, uint32_t groupCount);

private:
    void showPending();  // the held-back frame becomes the rows
    void emitAllChanged();

    std::vector<wire::WorkerStats> m_rows;  // ordered by worker id
    std::vector<LagFigures> m_lag;          // the same order
    std::vector<wire::WorkerStats> m_pendingRows;  // a frame held back by the refresh interval
    std::vector<LagFigures> m_pendingLag;
    QTimer m_refresh;
    QElapsedTimer m_sinceShown;
    bool m_grouped = false;
    uint32_t m_groupCount = 1;
};

}  // namespace syncscope::ui
