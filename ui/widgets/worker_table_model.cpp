// WorkerTableModel (see worker_table_model.h).
#include "ui/widgets/worker_table_model.h"

#include <QFontMetrics>

#include <QLocale>

#include <algorithm>
#include <cmath>

#include "ui/model/worker_selection.h"

namespace syncscope::ui {

namespace {
// A figure as the console's language writes it (a decimal comma in German), without thousands
// separators: the columns stay narrow.
QString decimal(double value, int digits) {
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    return locale.toString(value, 'f', digits);
}
}  // namespace

WorkerTableModel::WorkerTableModel(QObject* parent) : QAbstractTableModel(parent) {
    m_refresh.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        showPending();
        emitAllChanged();
    });
}

namespace {
constexpr uint32_t kDefaultGroups = 2;  // the engine's G when ModeSettings.group_count is 0
}

void WorkerTableModel::setFrame(const TelemetryFrame& frame) {
    if (frame.latest) {
        const wire::ModeSettings& mode = frame.latest->mode();
        m_grouped = mode.mode() == wire::GROUPED;
        m_groupCount = m_grouped ? (mode.group_count() ? mode.group_count() : kDefaultGroups) : 1;
        for (const wire::WorkerStats& worker : frame.latest->workers())
            m_groupCount = std::max(m_groupCount, worker.group() + 1);  // explicit groups may exceed G
    }
    std::vector<wire::WorkerStats> rows;
    rows.reserve(frame.workers.size());
    for (const auto& [id, series] : frame.workers) {
        rows.push_back(series.latest);
        rows.back().set_worker_id(id);
    }
    // The store works lag out once per frame, where the lag column shows (many workers).
    const auto frameLag = lagOf(frame);
    std::vector<LagFigures> lag;
    lag.reserve(rows.size());
    for (const auto& row : rows) {
        LagFigures figures;
        if (frameLag)
            if (const auto it = frameLag->find(row.worker_id()); it != frameLag->end()) figures = it->second;
        lag.push_back(figures);
    }
    m_pendingRows = std::move(rows);
    m_pendingLag = std::move(lag);
    const bool sameWorkers =
        std::equal(m_pendingRows.begin(), m_pendingRows.end(), m_rows.begin(), m_rows.end(),
                   [](const auto& a, const auto& b) { return a.worker_id() == b.worker_id(); });
    if (!sameWorkers) {
        beginResetModel();
        showPending();
        endResetModel();
        return;
    }
    // A worker's state or group is a fact to act on: shown at once. Only the figures wait.
    const bool factsChanged =
        !std::equal(m_pendingRows.begin(), m_pendingRows.end(), m_rows.begin(), m_rows.end(),
                    [](const auto& a, const auto& b) { return a.state() == b.state() && a.group() == b.group(); });
    const qint64 since = m_sinceShown.isValid() ? m_sinceShown.elapsed() : kRefreshIntervalMs;
    if (factsChanged || since >= kRefreshIntervalMs) {
        showPending();
        emitAllChanged();
    } else if (!m_refresh.isActive()) {
        m_refresh.start(int(kRefreshIntervalMs - since));  // the last frame of a burst is shown too
    }
}

void WorkerTableModel::showPending() {
    m_refresh.stop();
    m_rows = m_pendingRows;
    m_lag = m_pendingLag;
    m_sinceShown.start();
}

void WorkerTableModel::emitAllChanged() {
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString WorkerTableModel::widestSlowdownText(const QFontMetrics& metrics) const {
    QString widest = QStringLiteral("10.0");
    for (int row = 0; row < rowCount(); ++row) {
        if (!(m_rows[size_t(row)].cpu_limit() > 0)) continue;  // only the few limited rows are measured
        const QString text = data(index(row, Slowdown)).toString();
        if (metrics.horizontalAdvance(text) > metrics.horizontalAdvance(widest)) widest = text;
    }
    return widest;
}

int WorkerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int WorkerTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString WorkerTableModel::stateName(wire::WorkerState state) {
    switch (state) {
        case wire::WORKER_STARTING: return tr("starting");
        case wire::WORKER_COMPUTING: return tr("computing");
        case wire::WORKER_WAITING: return tr("waiting");
        case wire::WORKER_LOST: return tr("lost");
        case wire::WORKER_DONE: return tr("done");
        default: return tr("unknown");
    }
}

QString WorkerTableModel::lagName(ui::Lag lag) {
    switch (lag) {
        case ui::Lag::Chronic: return tr("chronic");
        case ui::Lag::Transient: return tr("brief");  // transient: short, so the table stays narrow
        default: return tr("–");
    }
}

namespace {
// The injected slowdown factor a worker runs at (1 without one).
double slowdownFactor(const wire::WorkerStats& w) { return w.has_slowdown() ? std::max(1.0, w.slowdown().factor()) : 1.0; }
}  // namespace

QVariant WorkerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const wire::WorkerStats& w = m_rows[index.row()];
    const LagFigures& lag = m_lag[size_t(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
            case Id: return w.worker_id();
            case State: return int(w.state());
            case Group: return w.group();
            case SamplesPerSecond: return w.samples_per_s();
            case Lag: return lag.relativeSpeed;
            case Staleness: return w.staleness_mean();
            case Dropped: return QVariant::fromValue<qulonglong>(w.dropped());
            case Batch: return w.batch_size();
            case Slowdown: return slowdownFactor(w);
            default: return {};
        }
    }
    if (index.column() == Lag && role == Qt::ToolTipRole)
        return tr("Below %1% of the median worker's samples/s in %2% of the last %3 s; %4% of its speed on average")
            .arg(int(100 * kLagFraction))
            .arg(int(std::lround(100 * lag.share)))
            .arg(int(kLagWindowSeconds))
            .arg(int(std::lround(100 * lag.relativeSpeed)));
    if (role == Qt::TextAlignmentRole)
        return index.column() == State || index.column() == Lag ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == Slowdown && role == Qt::ToolTipRole && w.cpu_limit() > 0)
        return tr("Worker %1's process runs under a CPU limit of %2 CPUs (a quota on its cgroup: a container's or "
                  "Slurm's CPU limit, or run --cpu-quota). The coordinator times its iterations by its CPU time "
                  "over that limit, so elastic sizes its batch by it.")
            .arg(w.worker_id())
            .arg(decimal(w.cpu_limit(), 2));
    if (index.column() == Group) {
        if (role == GroupCountRole) return int(m_groupCount);
        if (role == Qt::EditRole) return int(w.group());
        if (role == Qt::ToolTipRole)
            return m_grouped
                       ? tr("Double-click to move worker %1 to another group (0-%2)").arg(w.worker_id()).arg(m_groupCount - 1)
                       : tr("Groups can be edited in the grouped mode");
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Id: return w.worker_id();
        case State: return stateName(w.state());
        case Group: return w.group();
        case SamplesPerSecond: return decimal(w.samples_per_s(), 0);
        case Lag: return lagName(lag.lag);
        case Staleness: return decimal(w.staleness_mean(), 2);
        case Dropped: return QVariant::fromValue<qulonglong>(w.dropped());
        case Batch: return w.batch_size();
        case Slowdown: {
            // A CPU quota slows a worker as surely as an injected factor: the limit is shown in its
            // place (as narrow as the header), or beside a factor that was also injected.
            const double factor = slowdownFactor(w);
            if (!(w.cpu_limit() > 0)) return decimal(factor, 1);
            const QString limit = tr("%1 CPU", "the CPU limit of a worker's process, in CPUs").arg(decimal(w.cpu_limit(), 2));
            return factor > 1.0 ? QStringLiteral("%1 · %2").arg(decimal(factor, 1), limit) : limit;
        }
        default: return {};
    }
}

Qt::ItemFlags WorkerTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Group && m_grouped) flags |= Qt::ItemIsEditable;
    return flags;
}

bool WorkerTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= rowCount() || index.column() != Group || role != Qt::EditRole || !m_grouped)
        return false;
    bool ok = false;
    const int group = value.toInt(&ok);
    if (!ok || group < 0 || uint32_t(group) >= m_groupCount) return false;
    if (uint32_t(group) == m_rows[size_t(index.row())].group()) return true;  // nothing to regroup
    m_rows[size_t(index.row())].set_group(uint32_t(group));
    std::map<uint32_t, uint32_t> assignment;
    for (const wire::WorkerStats& worker : m_rows) assignment[worker.worker_id()] = worker.group();
    emit dataChanged(index, index);
    emit groupAssignmentEdited(assignment, m_groupCount);
    return true;
}

QVariant WorkerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Lag)
        return tr("Chronic: slower than the median worker for most of the last %1 s (a slow machine); brief: now "
                  "and then (transient hiccups). Click a header to sort; this one puts the slowest first.")
            .arg(int(kLagWindowSeconds));
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Id: return tr("Worker");
        case State: return tr("State");
        case Group: return tr("Group");
        case SamplesPerSecond: return tr("Samples/s");
        case Lag: return tr("Lag");
        case Staleness: return tr("Staleness");
        case Dropped: return tr("Dropped");
        case Batch: return tr("Batch");
        case Slowdown: return tr("Slowdown");
        default: return {};
    }
}

}  // namespace syncscope::ui
