// WorkerTableModel: one row per worker of the latest telemetry frame (state, group, throughput,
// staleness, drops, batch, slowdown); rows are updated in place while the worker set is unchanged.
#pragma once

#include <QAbstractTableModel>

#include <vector>

#include "ui/model/telemetry_frame.h"

namespace syncscope::ui {

class WorkerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, State, Group, SamplesPerSecond, Staleness, Dropped, Batch, Slowdown, ColumnCount };

    explicit WorkerTableModel(QObject* parent = nullptr);

    /// Emits dataChanged when the same workers are present, a model reset when the set changed.
    void setFrame(const TelemetryFrame& frame);
    uint32_t workerId(int row) const { return m_rows.at(row).worker_id(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString stateName(wire::WorkerState state);

private:
    std::vector<wire::WorkerStats> m_rows;  // ordered by worker id
};

}  // namespace syncscope::ui
