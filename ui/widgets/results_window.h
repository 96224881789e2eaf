// ResultsWindow: an experiment folder (the --out of `syncscope-engine experiment`) opened in the
// console: a reproduction's claims (claims.json) with each claim's verdict, its runs per seed and its
// comparisons with their 95% intervals, and each grid's figures against the straggler's delay
// (results.csv): the charts syncscope-plot saves as PNGs, here to look at. Reload picks up a folder
// an experiment is still writing.
#pragma once

#include <QWidget>
#include <optional>

#include "ui/plot/experiment_folder.h"

class QChartView;
class QLabel;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace syncscope::ui {

class ResultsWindow : public QWidget {
    Q_OBJECT
public:
    explicit ResultsWindow(QWidget* parent = nullptr);

    /// Reads the folder and shows its first claim (or figure). False when it holds nothing to show:
    /// the window then says why, as *error does.
    bool openFolder(const QString& dir, QString* error = nullptr);
    /// The folder read last; empty before the first.
    QString folder() const;
    /// Asks for a folder (a file dialog) and opens it.
    void chooseFolder();

    QTreeWidget* contents() const { return m_contents; }
    QList<QChartView*> chartViews() const { return {m_left, m_right}; }
    QLabel* heading() const { return m_heading; }
    QLabel* verdict() const { return m_verdict; }
    QTextBrowser* details() const { return m_details; }

private:
    void fillContents();
    void showItem(QTreeWidgetItem* item);
    void showClaim(int index);
    void showFigure(int grid, int figure);
    void showMessage(const QString& text);

    std::optional<ExperimentFolder> m_folder;
    QString m_path;
    QTreeWidget* m_contents;
    QLabel *m_heading, *m_verdict, *m_where;
    QChartView *m_left, *m_right;
    QTextBrowser* m_details;
};

}  // namespace syncscope::ui
