// What a console started, read from /proc: its engine child processes, and whether a process still
// runs (a zombie has ended). For the tests that check a console leaves no engine behind.
#pragma once

#include <QDir>
#include <QFile>
#include <QList>

namespace syncscope::test {

/// Children of `parent` whose executable is syncscope-engine (from each /proc/PID/stat's ppid).
inline QList<qint64> engineChildren(qint64 parent) {
    QList<qint64> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric) continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');  // the name may hold spaces
        if (fields.size() > 1 && fields[1].toLongLong() == parent &&
            QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid)).endsWith(QStringLiteral("syncscope-engine")))
            children << pid;
    }
    return children;
}

/// Whether `pid` runs (exists and is no zombie).
inline bool alive(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QByteArray text = stat.readAll();
    return text.mid(text.lastIndexOf(')') + 2, 1) != "Z";
}

}  // namespace syncscope::test
