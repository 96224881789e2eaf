// A Slurm task's role and the coordinator's host come from srun's variables: host lists in the forms
// Slurm writes, missing or inconsistent variables refused with the variable named, and the GPU a
// worker binds picked from CUDA_VISIBLE_DEVICES by SLURM_LOCALID.
#include <QtTest>

#include <map>
#include <string>

#include "engine/cli/slurm_task.h"

using namespace syncscope::engine;

namespace {

auto environment(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> const char* {
        auto it = values.find(name);
        return it == values.end() ? nullptr : it->second.c_str();
    };
}

}  // namespace

class TestSlurmTask : public QObject {
    Q_OBJECT
private slots:
    void firstHostOfEachForm_data();
    void firstHostOfEachForm();
    void malformedHostListsAreRefused();
    void readsTheTask();
    void missingVariableIsNamed();
    void rankBeyondTasksIsRefused();
    void gpuFollowsLocalId();
};

void TestSlurmTask::firstHostOfEachForm_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("first");
    QTest::newRow("one host") << "vm" << "vm";
    QTest::newRow("several hosts") << "gpu-a,gpu-b" << "gpu-a";
    QTest::newRow("range, padded") << "node[07-09,12]" << "node07";
    QTest::newRow("single in brackets") << "node[3]" << "node3";
    QTest::newRow("list then range") << "node[12,4-5],login1" << "node12";
    QTest::newRow("suffix") << "r[1-4]n" << "r1n";
    QTest::newRow("two dimensions") << "a[1-2]-b[03-04]" << "a1-b03";
}

void TestSlurmTask::firstHostOfEachForm() {
    QFETCH(QString, list);
    QFETCH(QString, first);
    auto host = firstHostOf(list.toStdString());
    QVERIFY2(host, host.status().message().c_str());
    QCOMPARE(QString::fromStdString(*host), first);
}

void TestSlurmTask::malformedHostListsAreRefused() {
    for (const char* list : {"", "node[", "node[a-b]", ",node1", "node[]"}) {
        auto host = firstHostOf(list);
        QVERIFY2(!host, list);
        QVERIFY(host.status().message().find("scontrol show hostnames") != std::string::npos);
    }
}

void TestSlurmTask::readsTheTask() {
    auto task = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "5"},
                                                      {"SLURM_LOCALID", "1"}, {"SLURM_STEP_NODELIST", "n[2-3]"},
                                                      {"SLURMD_NODENAME", "n3"}, {"SLURM_JOB_ID", "77"},
                                                      {"SLURM_SUBMIT_DIR", "/home/a"}}));
    QVERIFY2(task, task.status().message().c_str());
    QCOMPARE(task->rank, 3u);
    QCOMPARE(task->tasks, 5u);
    QCOMPARE(task->localId, 1u);
    QCOMPARE(task->firstHost, std::string("n2"));
    QCOMPARE(task->nodeName, std::string("n3"));
    QCOMPARE(task->jobId, std::string("77"));
    QCOMPARE(task->submitDir, std::string("/home/a"));
}

void TestSlurmTask::missingVariableIsNamed() {
    auto task = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}}));
    QVERIFY(!task);
    QVERIFY2(task.status().message().find("SLURM_NTASKS is not set") != std::string::npos, task.status().message().c_str());
    QVERIFY(task.status().message().find("srun") != std::string::npos);
    auto noList = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}}));
    QVERIFY(!noList);
    QVERIFY(noList.status().message().find("SLURM_STEP_NODELIST") != std::string::npos);
    auto bad = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}}));
    QVERIFY(!bad);
    QVERIFY(bad.status().message().find("SLURM_PROCID='x'") != std::string::npos);
}

void TestSlurmTask::rankBeyondTasksIsRefused() {
    auto task = slurmTaskFromEnvironment(environment(
        {{"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}, {"SLURM_STEP_NODELIST", "a"}}));
    QVERIFY(!task);
    QVERIFY(task.status().message().find("SLURM_PROCID 2") != std::string::npos);
}

void TestSlurmTask::gpuFollowsLocalId() {
    QVERIFY(!gpuForLocalTask(1, ""));      // nothing listed: the backend's device 0
    QVERIFY(!gpuForLocalTask(3, "2"));     // --gpus-per-task: Slurm already gave this task its own
    QCOMPARE(*gpuForLocalTask(0, "0,1,2,3"), std::string("0"));
    QCOMPARE(*gpuForLocalTask(2, "4,5,6,7"), std::string("6"));
    QCOMPARE(*gpuForLocalTask(5, "4,5,6,7"), std::string("5"));  // more tasks than GPUs on the node: shared
    QCOMPARE(*gpuForLocalTask(1, "GPU-aa,GPU-bb"), std::string("GPU-bb"));  // UUIDs as well as indices
}

QTEST_GUILESS_MAIN(TestSlurmTask)
#include "test_slurm_task.moc"
