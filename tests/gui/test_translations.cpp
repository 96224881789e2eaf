// The console's translations, through the real `syncscope` binary: --lang picks the German or
// Simplified Chinese catalogue compiled into it (help text and error messages), a language it does
// not have is a usage error (exit 2), and without --lang the locale picks one.
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

namespace {

constexpr int kTimeoutMs = 30'000;

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result runConsole(const QStringList& arguments, const QString& locale = QStringLiteral("C")) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("LC_ALL"), locale);
    environment.insert(QStringLiteral("LANG"), locale);
    environment.remove(QStringLiteral("LANGUAGE"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(SYNCSCOPE_CONSOLE_BINARY), arguments);
    Result result;
    if (!process.waitForFinished(kTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void englishHelpIsTheSource();
    void germanHelp();
    void chineseHelp();
    void unknownLanguageIsAUsageError();
    void germanErrorMessage();
    void chineseErrorMessage();
    void localePicksTheLanguage();
};

void TestTranslations::englishHelpIsTheSource() {
    const Result result = runConsole({QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains(QStringLiteral("Start a local cluster with N workers.")), qPrintable(result.out));
}

void TestTranslations::germanHelp() {
    const Result result = runConsole({QStringLiteral("--lang"), QStringLiteral("de"), QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains(QStringLiteral("verteiltes Training beobachten und steuern")), qPrintable(result.out));
    QVERIFY2(result.out.contains(QStringLiteral("Einen lokalen Cluster mit N Workern starten.")), qPrintable(result.out));
    QVERIFY(!result.out.contains(QStringLiteral("Start a local cluster with N workers.")));
}

void TestTranslations::chineseHelp() {
    const Result result = runConsole({QStringLiteral("--lang=zh_CN"), QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains(QStringLiteral("观察并操控分布式训练")), qPrintable(result.out));
    QVERIFY2(result.out.contains(QStringLiteral("启动一个有 N 个工作节点的本地集群。")), qPrintable(result.out));
}

void TestTranslations::unknownLanguageIsAUsageError() {
    const Result result = runConsole({QStringLiteral("--lang"), QStringLiteral("xx"), QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QStringLiteral("--lang 'xx' is not one of en, de, zh_CN")), qPrintable(result.err));
    QVERIFY(result.out.isEmpty());
}

void TestTranslations::germanErrorMessage() {
    const Result result = runConsole({QStringLiteral("--lang"), QStringLiteral("de"), QStringLiteral("--local"), QStringLiteral("0")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QStringLiteral("muss eine Anzahl von Workern zwischen 1 und 1024 sein")), qPrintable(result.err));
    QVERIFY2(result.err.contains(QStringLiteral("werden die Optionen angezeigt")), qPrintable(result.err));
}

void TestTranslations::chineseErrorMessage() {
    const Result result = runConsole({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--local"), QStringLiteral("0")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QStringLiteral("必须是 1 到 1024 之间的工作节点数")), qPrintable(result.err));
}

void TestTranslations::localePicksTheLanguage() {
    // QLocale::system() reads LC_ALL / LANG on Unix; the locale need not be installed for that.
    const Result german = runConsole({QStringLiteral("--local"), QStringLiteral("0")}, QStringLiteral("de_DE.UTF-8"));
    QCOMPARE(german.exitCode, 2);
    QVERIFY2(german.err.contains(QStringLiteral("muss eine Anzahl von Workern")), qPrintable(german.err));
    // --lang overrides the locale.
    const Result english = runConsole({QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--local"), QStringLiteral("0")},
                                      QStringLiteral("de_DE.UTF-8"));
    QCOMPARE(english.exitCode, 2);
    QVERIFY2(english.err.contains(QStringLiteral("must be a number of workers from 1 to 1024")), qPrintable(english.err));
}

QTEST_GUILESS_MAIN(TestTranslations)
#include "test_translations.moc"
