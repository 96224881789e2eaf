// ResultsWindow (see results_window.h): a contents tree on the left (claims, then each grid's
// figures), the chosen entry's charts and figures on the right. The files are small (a few hundred
// KB at most) and read on the GUI thread; no socket is involved.
#include "ui/widgets/results_window.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/plot/claim_charts.h"
#include "ui/plot/delay_chart.h"
#include "ui/widgets/chart_style.h"
#include "ui/widgets/eliding_label.h"

namespace syncscope::ui {
namespace {

enum Role { kKindRole = Qt::UserRole, kIndexRole, kFigureRole };
enum Kind { kClaimEntry = 1, kFigureEntry };

QColor verdictColor(Claim::Verdict v) {
    switch (v) {
        case Claim::Verdict::Reproduced: return QColor(0x2e7d32);
        case Claim::Verdict::NotReproduced: return QColor(0xc25400);
        case Claim::Verdict::NotEvaluated: return QColor(0x757575);
    }
    return {};
}

QIcon dot(const QColor& color) {
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(color);
    painter.setPen(color.darker(140));
    painter.drawEllipse(QRectF(1.5, 1.5, 11, 11));
    return QIcon(pixmap);
}

// Puts `chart` in `view` and frees the one it replaces (QChartView::setChart does not).
void showChart(QChartView* view, QChart* chart) {
    QChart* old = view->chart();
    if (chart) applyCompactStyle(chart);
    view->setChart(chart ? chart : new QChart);
    delete old;
}

QString bulletList(const QStringList& lines) {
    QString html = QStringLiteral("<ul>");
    for (const QString& line : lines) html += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

}  // namespace

ResultsWindow::ResultsWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_contents(new QTreeWidget(this)), m_heading(new QLabel(this)),
      m_verdict(new QLabel(this)), m_where(new ElidingLabel(this)), m_left(new QChartView(this)),
      m_right(new QChartView(this)), m_details(new QTextBrowser(this)) {
    setWindowTitle(tr("Experiment results"));
    resize(1280, 800);
    auto* open = new QPushButton(tr("Open folder…"), this);
    auto* reload = new QPushButton(tr("Reload"), this);
    reload->setShortcut(QKeySequence::Refresh);
    reload->setToolTip(tr("Read the folder again (an experiment still running adds runs and, at its end, the claims)"));
    connect(open, &QPushButton::clicked, this, &ResultsWindow::chooseFolder);
    connect(reload, &QPushButton::clicked, this, [this] {
        if (!m_path.isEmpty()) openFolder(m_path);
    });
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_contents->setColumnCount(2);
    m_contents->setHeaderLabels({tr("Claim or figure"), tr("Verdict")});
    m_contents->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_contents->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_contents->header()->setStretchLastSection(false);
    m_contents->setWordWrap(true);
    connect(m_contents, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { showItem(item); });

    QFont bigger = m_heading->font();
    bigger.setPointSizeF(bigger.pointSizeF() * 1.25);
    bigger.setBold(true);
    m_heading->setFont(bigger);
    m_heading->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    for (QChartView* view : {m_left, m_right}) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 200);
    }
    m_details->setOpenLinks(false);

    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(m_left);
    charts->addWidget(m_right);
    auto* below = new QSplitter(Qt::Vertical, this);
    below->addWidget(charts);
    below->addWidget(m_details);
    below->setStretchFactor(0, 3);
    below->setStretchFactor(1, 1);
    auto* page = new QWidget(this);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(m_heading);
    pageLayout->addWidget(m_verdict);
    pageLayout->addWidget(below, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_contents);
    split->addWidget(page);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setSizes({330, 950});
    m_contents->setMinimumWidth(200);

    auto* top = new QHBoxLayout;
    top->addWidget(open);
    top->addWidget(reload);
    top->addWidget(m_where, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    showMessage(tr("Open the folder an experiment wrote (syncscope-engine experiment --out DIR)."));
}

QString ResultsWindow::folder() const { return m_path; }

void ResultsWindow::chooseFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open an experiment folder"), m_path);
    if (!dir.isEmpty()) openFolder(dir);
}

bool ResultsWindow::openFolder(const QString& dir, QString* error) {
    QString why;
    m_path = dir;
    m_where->setText(dir);
    m_folder = ExperimentFolder::open(dir, &why);
    fillContents();
    if (!m_folder) {
        showMessage(tr("Nothing to show: %1").arg(why));
        if (error) *error = why;
        return false;
    }
    return true;
}

void ResultsWindow::fillContents() {
    // Reload keeps the entry shown where the folder still has it.
    const QTreeWidgetItem* shown = m_contents->currentItem();
    const QVariantList was = shown ? QVariantList{shown->data(0, kKindRole), shown->data(0, kIndexRole), shown->data(0, kFigureRole)}
                                   : QVariantList{};
    m_contents->clear();
    if (!m_folder) return;
    QTreeWidgetItem* first = nullptr;
    QTreeWidgetItem* again = nullptr;
    auto remember = [&](QTreeWidgetItem* item) {
        if (!first) first = item;
        if (!was.isEmpty() && QVariantList{item->data(0, kKindRole), item->data(0, kIndexRole), item->data(0, kFigureRole)} == was)
            again = item;
    };
    if (const auto& claims = m_folder->claims) {
        auto* group = new QTreeWidgetItem(m_contents, {claims->quick ? tr("Claims: %1 (quick)").arg(claims->spec)
                                                                     : tr("Claims: %1").arg(claims->spec)});
        for (qsizetype i = 0; i < claims->claims.size(); ++i) {
            const Claim& claim = claims->claims[i];
            auto* item = new QTreeWidgetItem(group, {claim.title, verdictLabel(claim.verdict)});
            item->setIcon(1, dot(verdictColor(claim.verdict)));
            item->setToolTip(0, claim.why);
            item->setData(0, kKindRole, kClaimEntry);
            item->setData(0, kIndexRole, int(i));
            remember(item);
        }
    }
    for (qsizetype g = 0; g < m_folder->grids.size(); ++g) {
        const ExperimentGrid& grid = m_folder->grids[g];
        auto* group = new QTreeWidgetItem(m_contents, {grid.name.isEmpty() ? tr("Figures") : tr("Part: %1").arg(grid.name)});
        const QList<DelayFigure> figures = delayFigures(grid.table);
        for (qsizetype f = 0; f < figures.size(); ++f) {
            auto* item = new QTreeWidgetItem(group, {figures[f].title});
            item->setToolTip(0, grid.csvPath);
            item->setData(0, kKindRole, kFigureEntry);
            item->setData(0, kIndexRole, int(g));
            item->setData(0, kFigureRole, int(f));
            remember(item);
        }
    }
    for (int i = 0; i < m_contents->topLevelItemCount(); ++i) m_contents->topLevelItem(i)->setFirstColumnSpanned(true);
    m_contents->expandAll();
    if (again || first) m_contents->setCurrentItem(again ? again : first);
}

void ResultsWindow::showItem(QTreeWidgetItem* item) {
    if (!item || !m_folder) return;
    const int kind = item->data(0, kKindRole).toInt();
    if (kind == kClaimEntry) showClaim(item->data(0, kIndexRole).toInt());
    else if (kind == kFigureEntry) showFigure(item->data(0, kIndexRole).toInt(), item->data(0, kFigureRole).toInt());
}

void ResultsWindow::showClaim(int index) {
    const ClaimsReport& report = *m_folder->claims;
    const Claim& claim = report.claims.at(index);
    m_heading->setText(claim.title);
    m_verdict->setText(QStringLiteral("<b style=\"color:%1\">%2</b>: %3")
                           .arg(verdictColor(claim.verdict).name(), verdictLabel(claim.verdict).toHtmlEscaped(),
                                claim.why.toHtmlEscaped()));
    m_verdict->show();
    showChart(m_left, makeClaimRunsChart(report, claim));
    showChart(m_right, makeClaimIntervalsChart(claim));
    m_right->show();
    QString html;
    if (!claim.paper.isEmpty()) html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("The paper:"), claim.paper.toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b> (%2)</p>").arg(tr("Ours:"), tr("parts %1").arg(claim.parts.join(QStringLiteral(", "))));
    html += bulletList(claim.figures);
    html += QStringLiteral("<p>%1 <code>%2</code></p>").arg(tr("Run with:"), report.command.toHtmlEscaped());
    if (!m_folder->problems.isEmpty()) html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Not read:")) + bulletList(m_folder->problems);
    m_details->setHtml(html);
}

void ResultsWindow::showFigure(int grid, int figure) {
    const ExperimentGrid& g = m_folder->grids.at(grid);
    const DelayFigure f = delayFigures(g.table).at(figure);
    m_heading->setText(g.name.isEmpty() ? f.title : QStringLiteral("%1: %2").arg(g.name, f.title));
    m_verdict->hide();
    showChart(m_left, makeDelayChart(g.table, f));
    showChart(m_right, nullptr);
    m_right->hide();
    QString html = QStringLiteral("<p>%1 <code>%2</code></p>").arg(tr("From"), g.csvPath.toHtmlEscaped());
    if (!m_folder->problems.isEmpty()) html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Not read:")) + bulletList(m_folder->problems);
    m_details->setHtml(html);
}

void ResultsWindow::showMessage(const QString& text) {
    m_heading->setText(text);
    m_verdict->hide();
    showChart(m_left, nullptr);
    showChart(m_right, nullptr);
    m_details->clear();
}

}  // namespace syncscope::ui
