// LogPanel: the console's log, one line high by default (the newest line), expandable to the whole
// history, so the log never takes the charts' height unless someone asks for it.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace syncscope::ui {

class LogPanel : public QWidget {
    Q_OBJECT
public:
    explicit LogPanel(QWidget* parent = nullptr);

    void append(const QString& line);
    /// The whole history (shown when expanded).
    QPlainTextEdit* view() const { return m_history; }
    void setExpanded(bool expanded);
    bool expanded() const;

signals:
    void expandedChanged(bool expanded);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showNewest();

    QToolButton* m_toggle;
    QLabel* m_newest;
    QPlainTextEdit* m_history;
    QString m_newestLine;
};

}  // namespace syncscope::ui
