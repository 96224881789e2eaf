// A child's reports to the process that started it (serve --report-fd): frames through a real pipe,
// split anywhere, a stream that is not one, and a writer that goes away.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "engine/net/process_report.h"

namespace {

using namespace syncscope::engine;
namespace wire = syncscope::wire;

struct Pipe {
    Pipe() { EXPECT_EQ(pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0); }
    ~Pipe() {
        for (int fd : fds)
            if (fd >= 0) close(fd);
    }
    void closeWriter() {
        close(fds[1]);
        fds[1] = -1;
    }
    int fds[2] = {-1, -1};
};

wire::ProcessReport listening(const std::string& data) {
    wire::ProcessReport report;
    report.mutable_listening()->set_data(data);
    report.mutable_listening()->set_control("tcp://127.0.0.1:2");
    report.mutable_listening()->set_telemetry("tcp://127.0.0.1:3");
    return report;
}

TEST(ProcessReport, ReportsArriveWholeAndInOrder) {
    Pipe pipe;
    ProcessReportReader reader(pipe.fds[0]);
    EXPECT_FALSE(reader.next());  // nothing yet, and it does not block
    ASSERT_TRUE(writeProcessReport(pipe.fds[1], listening("tcp://127.0.0.1:1")));
    wire::ProcessReport result;
    result.mutable_result()->set_evaluated(true);
    result.mutable_result()->set_test_accuracy(0.8636);
    result.mutable_result()->set_model_version(505);
    ASSERT_TRUE(writeProcessReport(pipe.fds[1], result));
    pipe.closeWriter();

    auto first = reader.next(1000);
    ASSERT_TRUE(first);
    ASSERT_TRUE(first->has_listening());
    EXPECT_EQ(endpointsOf(first->listening()).data, "tcp://127.0.0.1:1");
    EXPECT_EQ(endpointsOf(first->listening()).telemetry, "tcp://127.0.0.1:3");
    auto second = reader.next(1000);
    ASSERT_TRUE(second);
    ASSERT_TRUE(second->has_result());
    EXPECT_DOUBLE_EQ(second->result().test_accuracy(), 0.8636);
    EXPECT_EQ(second->result().model_version(), 505u);
    EXPECT_FALSE(reader.next(1000));
    EXPECT_TRUE(reader.closed());
    EXPECT_TRUE(reader.error().empty()) << reader.error();
}

TEST(ProcessReport, AFrameSplitAcrossWritesWaitsForItsRest) {
    Pipe pipe;
    ProcessReportReader reader(pipe.fds[0]);
    const std::string payload = listening("tcp://host:5555").SerializeAsString();
    std::string frame(4, '\0');
    for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
    frame += payload;
    ASSERT_EQ(write(pipe.fds[1], frame.data(), 6), 6);  // the length and two bytes
    EXPECT_FALSE(reader.next(50));
    EXPECT_FALSE(reader.closed());
    ASSERT_EQ(write(pipe.fds[1], frame.data() + 6, frame.size() - 6), ssize_t(frame.size() - 6));
    auto report = reader.next(1000);
    ASSERT_TRUE(report);
    EXPECT_EQ(report->listening().data(), "tcp://host:5555");
}

TEST(ProcessReport, TextIsNoReport) {
    Pipe pipe;
    ProcessReportReader reader(pipe.fds[0]);
    const std::string text = "endpoints data=tcp://127.0.0.1:1 control=tcp://127.0.0.1:2\n";  // what stdout says
    ASSERT_EQ(write(pipe.fds[1], text.data(), text.size()), ssize_t(text.size()));
    EXPECT_FALSE(reader.next(1000));
    EXPECT_FALSE(reader.error().empty());  // "endp" is a length of 1.8 GB: refused, not waited for
}

TEST(ProcessReport, AWriterThatDiesEarlyLeavesAClosedStream) {
    Pipe pipe;
    ProcessReportReader reader(pipe.fds[0]);
    pipe.closeWriter();
    EXPECT_FALSE(reader.next(1000));
    EXPECT_TRUE(reader.closed());
}

}  // namespace
