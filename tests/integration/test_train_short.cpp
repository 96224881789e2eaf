// Short real trainings on Fashion-MNIST through the CLI: accuracy clears a lower bar than the
// full runs in the README (so CI stays fast), and one-thread CPU training is bit-for-bit repeatable.
#include <QRegularExpression>
#include <QTest>

#include "engine_process.h"

namespace {

double accuracyOf(const EngineRun& run) {
    const auto match = QRegularExpression(R"(test accuracy: ([0-9.]+)%)").match(run.out);
    return match.hasMatch() ? match.captured(1).toDouble() : -1.0;
}

QString checksumOf(const EngineRun& run) {
    return QRegularExpression(R"(parameter checksum: ([0-9a-f]{16}))").match(run.out).captured(1);
}

}  // namespace

class TestTrainShort : public QObject {
    Q_OBJECT
private slots:
    void reachesLowerBar_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<double>("bar");
        QTest::newRow("mlp, 2 epochs") << QStringList{"--model", "mlp", "--epochs", "2"} << 85.0;
        QTest::newRow("cnn, 1 epoch") << QStringList{"--model", "cnn", "--epochs", "1"} << 84.0;
    }
    void reachesLowerBar() {
        QFETCH(QStringList, args);
        QFETCH(double, bar);
        const EngineRun run = runEngine(QStringList{"train", "--backend", "cpu", "--data", SYNCSCOPE_FASHION_MNIST_DIR} + args);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const double accuracy = accuracyOf(run);
        qInfo("%s: test accuracy %.2f%%", qPrintable(args.join(' ')), accuracy);
        QVERIFY2(accuracy >= bar, qPrintable(run.out));
    }

    void oneThreadIsBitForBitRepeatable() {
        const QStringList args{"train", "--backend", "cpu", "--threads", "1", "--model", "cnn", "--epochs", "1",
                               "--train-limit", "1024", "--data", SYNCSCOPE_FASHION_MNIST_DIR};
        const EngineRun first = runEngine(args), second = runEngine(args);
        const EngineRun otherSeed = runEngine(args + QStringList{"--seed", "2"});
        QVERIFY2(first.exitCode == 0 && second.exitCode == 0 && otherSeed.exitCode == 0, qPrintable(first.err));
        QVERIFY(!checksumOf(first).isEmpty());
        QCOMPARE(checksumOf(second), checksumOf(first));
        QVERIFY2(checksumOf(otherSeed) != checksumOf(first), "a different seed must change the result");
    }
};

QTEST_GUILESS_MAIN(TestTrainShort)
#include "test_train_short.moc"
