<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChartExport</name>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="26"/>
        <source>SyncScope charts</source>
        <translation>SyncScope 图表</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="28"/>
        <location filename="../ui/widgets/chart_export.cpp" line="42"/>
        <source>Cannot write %1: check that the folder is writable.</source>
        <translation>无法写入 %1：请检查文件夹是否可写。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="40"/>
        <source>Cannot export charts to %1: the name must end in .png or .svg.</source>
        <translation>无法将图表导出到 %1：文件名必须以 .png 或 .svg 结尾。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="53"/>
        <source>Export c&amp;harts</source>
        <translation>导出图表(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="56"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="57"/>
        <source>Export charts as %1</source>
        <translation>将图表导出为 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="58"/>
        <source>%1 images (*.%2)</source>
        <translation>%1 图像 (*.%2)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/console_main.cpp" line="30"/>
        <source>Run &apos;syncscope --help&apos; for the flags.</source>
        <translation>运行 &apos;syncscope --help&apos; 查看所有选项。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="91"/>
        <source>SyncScope console: watch and steer distributed training</source>
        <translation>SyncScope 控制台：观察并操控分布式训练</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="94"/>
        <source>Attach to a coordinator&apos;s control endpoint (telemetry: port + 1).</source>
        <translation>连接到协调器的控制端点（遥测端口为该端口 + 1）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="96"/>
        <source>Start a local cluster with N workers.</source>
        <translation>启动一个有 N 个工作节点的本地集群。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="99"/>
        <source>The syncscope-engine binary for local clusters.</source>
        <translation>本地集群所用的 syncscope-engine 可执行文件。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="102"/>
        <source>Language of the console: de, zh_CN or en (default: the system locale).</source>
        <translation>控制台语言：de、zh_CN 或 en（默认：系统区域设置）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="106"/>
        <source>Save a PNG of the window to FILE after a while of running, stop a local cluster, and exit.</source>
        <translation>运行一段时间后将窗口截图保存为 PNG 文件 FILE，停止本地集群并退出。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="110"/>
        <source>Seconds of running before --screenshot grabs the window (default: 10).</source>
        <translation>--screenshot 截取窗口前运行的秒数（默认：10）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="113"/>
        <source>Open a run recording for replay and export.</source>
        <translation>打开运行记录以回放和导出。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="119"/>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>意外的参数“%1”</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="121"/>
        <source>give one of --attach, --local and --open</source>
        <translation>请只指定 --attach、--local 和 --open 中的一个</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="127"/>
        <source>--attach &apos;%1&apos; is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)</source>
        <translation>--attach“%1”不是 tcp://HOST:PORT 格式（例如 tcp://127.0.0.1:5556）</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="134"/>
        <source>--local &apos;%1&apos; must be a number of workers from 1 to 1024</source>
        <translation>--local“%1”必须是 1 到 1024 之间的工作节点数</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="137"/>
        <source>no syncscope-engine at &apos;%1&apos;; give its path with --engine PATH</source>
        <translation>在“%1”找不到 syncscope-engine；请用 --engine PATH 指定其路径</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="142"/>
        <source>--screenshot needs --local N or --attach tcp://HOST:PORT</source>
        <translation>--screenshot 需要 --local N 或 --attach tcp://HOST:PORT</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="146"/>
        <source>--screenshot-after &apos;%1&apos; must be a number of seconds from 0 to 86400</source>
        <translation>--screenshot-after“%1”必须是 0 到 86400 之间的秒数</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="155"/>
        <source>--screenshot-after needs --screenshot FILE</source>
        <translation>--screenshot-after 需要 --screenshot FILE</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="172"/>
        <source>syncscope: saved the window to &apos;%1&apos;</source>
        <translation>syncscope：窗口已保存到“%1”</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="175"/>
        <source>could not save the screenshot to &apos;%1&apos; (is the folder there and writable?)</source>
        <translation>无法将截图保存到“%1”（文件夹是否存在且可写？）</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ChartsPanel</name>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="20"/>
        <source>Samples/s per worker</source>
        <translation>每个工作节点的样本/秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="20"/>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="21"/>
        <source>Staleness (mean per worker)</source>
        <translation>陈旧度（每个工作节点的平均值）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="21"/>
        <source>versions behind</source>
        <translation>落后的版本数</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="22"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="22"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="23"/>
        <source>Test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="23"/>
        <source>accuracy (%)</source>
        <translation>准确率（%）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <source>All workers</source>
        <translation>所有工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="62"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="63"/>
        <source>worker %1</source>
        <translation>工作节点 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="67"/>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="68"/>
        <source>test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="79"/>
        <source>Worker %1</source>
        <translation>工作节点 %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ConnectDialog</name>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="18"/>
        <source>Connect to a run</source>
        <translation>连接到训练任务</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="20"/>
        <source>Start a local cluster</source>
        <translation>启动本地集群</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="21"/>
        <source>Attach to a running coordinator</source>
        <translation>连接到正在运行的协调器</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="47"/>
        <source>Control endpoint</source>
        <translation>控制端点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="48"/>
        <source>Telemetry endpoint</source>
        <translation>遥测端点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="67"/>
        <source>Workers</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="68"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="69"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="70"/>
        <source>Sync mode</source>
        <translation>同步模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="71"/>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::MainWindow</name>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="32"/>
        <source>waiting for workers</source>
        <translation>等待工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="33"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="34"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="35"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="36"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="43"/>
        <source>SyncScope</source>
        <translation>SyncScope</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="66"/>
        <location filename="../ui/widgets/main_window.cpp" line="113"/>
        <source>Not attached</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="67"/>
        <source>Detached: %1</source>
        <translation>已断开：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="70"/>
        <source>Connection lost: %1</source>
        <translation>连接丢失：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="78"/>
        <source>Steering</source>
        <translation>操控</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="85"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="92"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="93"/>
        <source>&amp;Attach…</source>
        <translation>连接(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="94"/>
        <source>Start &amp;local cluster…</source>
        <translation>启动本地集群(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="95"/>
        <source>&amp;Detach</source>
        <translation>断开(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="100"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="101"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="103"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="104"/>
        <source>&amp;Wall-clock time axis</source>
        <translation>挂钟时间轴(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="107"/>
        <source>&amp;Log-scale loss</source>
        <translation>对数刻度损失(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="139"/>
        <source>Cannot attach: give both endpoints as tcp://HOST:PORT.</source>
        <translation>无法连接：请以 tcp://HOST:PORT 格式给出两个端点。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="144"/>
        <source>Attaching to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="164"/>
        <source>Replay: %1</source>
        <translation>回放：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="165"/>
        <source>Opened recording %1 (%2 s)</source>
        <translation>已打开录制文件 %1（%2 秒）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="169"/>
        <source>Exported the charts to %1</source>
        <translation>已将图表导出到 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="184"/>
        <source>State: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="185"/>
        <source>Mode: %1</source>
        <translation>模式：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="186"/>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="187"/>
        <source>Accuracy: –</source>
        <translation>准确率：–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="188"/>
        <source>Accuracy: %1%</source>
        <translation>准确率：%1%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="195"/>
        <source>[%1 s] %2: %3</source>
        <translation>[%1 秒] %2：%3</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="210"/>
        <source>Command %1 refused: %2</source>
        <translation>命令 %1 被拒绝：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="214"/>
        <source>Command %1 done: %2</source>
        <translation>命令 %1 已完成：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="214"/>
        <source>no event</source>
        <translation>无事件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="219"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>本地集群已在运行；请先停止它。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="234"/>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="236"/>
        <source>Starting a local cluster: %1 %2</source>
        <translation>正在启动本地集群：%1 %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="250"/>
        <source>The coordinator did not report its endpoints: %1</source>
        <translation>协调器未报告其端点：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="283"/>
        <source>Stop the local cluster?</source>
        <translation>停止本地集群？</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="284"/>
        <source>This window started a local cluster. Stop its coordinator and workers?</source>
        <translation>此窗口启动了一个本地集群。要停止其协调器和工作节点吗？</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::NetworkWorker</name>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="27"/>
        <source>attached to %1: %2, %3 workers, %4; %5 ticks and %6 events of history</source>
        <translation>已连接到 %1：%2，%3 个工作节点，%4；历史记录含 %5 个时间点和 %6 个事件</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="43"/>
        <source>re-attaching to %1</source>
        <translation>正在重新连接到 %1</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="57"/>
        <source>cannot connect to %1 and %2: %3 (expected endpoints like tcp://HOST:PORT)</source>
        <translation>无法连接到 %1 和 %2：%3（端点应形如 tcp://HOST:PORT）</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="70"/>
        <source>detached from %1</source>
        <translation>已断开与 %1 的连接</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="76"/>
        <source>the console built an unreadable request</source>
        <translation>控制台生成了无法读取的请求</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="80"/>
        <source>not attached to a coordinator</source>
        <translation>未连接到协调器</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="86"/>
        <source>could not send to %1: %2</source>
        <translation>无法发送到 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="91"/>
        <source>the console is closing</source>
        <translation>控制台正在关闭</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="107"/>
        <source>network error on %1: %2</source>
        <translation>%1 上的网络错误：%2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="149"/>
        <source>no telemetry from %1 within 5 s: is a coordinator running there?</source>
        <translation>5 秒内未收到来自 %1 的遥测数据：那里有协调器在运行吗？</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="153"/>
        <source>no snapshot reply from %1 within 5 s: is it the control endpoint of the coordinator at %2?</source>
        <translation>5 秒内未收到来自 %1 的快照回复：它是位于 %2 的协调器的控制端点吗？</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="159"/>
        <source>no telemetry from %1 for 3 s: the coordinator stopped or the network is down; waiting for it to come back</source>
        <translation>3 秒内未收到来自 %1 的遥测数据：协调器已停止或网络中断；正在等待其恢复</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="167"/>
        <source>no reply from %1 within 5 s</source>
        <translation>5 秒内未收到来自 %1 的回复</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="204"/>
        <source>the coordinator at %1 refused the snapshot request: %2</source>
        <translation>位于 %1 的协调器拒绝了快照请求：%2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ReplayBar</name>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="27"/>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="30"/>
        <location filename="../ui/widgets/replay_bar.cpp" line="94"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="31"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="36"/>
        <source>Replay position: drag to seek</source>
        <translation>回放位置：拖动以跳转</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="38"/>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="40"/>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="53"/>
        <source>&amp;Open recording…</source>
        <translation>打开录制文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="54"/>
        <source>Open recording</source>
        <translation>打开录制文件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="55"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope 录制文件 (*.ssrec);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="58"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="60"/>
        <source>&amp;CSV…</source>
        <translation>&amp;CSV…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="61"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="61"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="63"/>
        <source>&amp;JSON Lines…</source>
        <translation>&amp;JSON Lines…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>Export JSON Lines</source>
        <translation>导出 JSON Lines</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="71"/>
        <source>Exported the recording to %1</source>
        <translation>已将录制文件导出到 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="79"/>
        <source>Exports an open recording: record a live run with --record, then open it.</source>
        <translation>导出已打开的录制文件：先用 --record 录制一次实时运行，然后打开它。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="90"/>
        <source>%1 s / %2 s</source>
        <translation>%1 秒 / %2 秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="94"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ReplayController</name>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="25"/>
        <source>Cannot open recording %1: %2</source>
        <translation>无法打开录制文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="41"/>
        <source>The recording %1 holds no telemetry ticks: nothing to replay.</source>
        <translation>录制文件 %1 不含遥测时间点：没有可回放的内容。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="48"/>
        <source>Recording %1 opened with a warning: %2</source>
        <translation>已打开录制文件 %1，但有警告：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="112"/>
        <source>No recording is open: open one with File → Open recording… first.</source>
        <translation>没有打开的录制文件：请先通过 文件 → 打开录制文件… 打开一个。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="116"/>
        <source>Cannot export to %1: the name must end in .csv or .jsonl.</source>
        <translation>无法导出到 %1：文件名必须以 .csv 或 .jsonl 结尾。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="118"/>
        <source>Cannot write %1: check that the folder exists and is writable.</source>
        <translation>无法写入 %1：请检查文件夹是否存在且可写。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="121"/>
        <source>Export to %1 failed: %2</source>
        <translation>导出到 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="123"/>
        <source>Writing %1 failed (disk full?).</source>
        <translation>写入 %1 失败（磁盘已满？）。</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::StalenessHistogram</name>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="15"/>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="16"/>
        <source>Staleness histogram</source>
        <translation>陈旧度直方图</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="29"/>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="32"/>
        <source>staleness τ (versions behind)</source>
        <translation>陈旧度 τ（落后的版本数）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="36"/>
        <source>gradients applied</source>
        <translation>已应用的梯度</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::SteeringPanel</name>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="37"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="39"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="40"/>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="41"/>
        <location filename="../ui/widgets/steering_panel.cpp" line="156"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="42"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="43"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="44"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="59"/>
        <source>Synchronisation</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="62"/>
        <source>BSP (bulk synchronous)</source>
        <translation>BSP（整体同步）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="63"/>
        <source>ASP (asynchronous)</source>
        <translation>ASP（异步）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="64"/>
        <source>SSP (stale synchronous)</source>
        <translation>SSP（陈旧同步）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="69"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="70"/>
        <source>inverse (lr / staleness)</source>
        <translation>反比（学习率 / 陈旧度）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="71"/>
        <source>DynSGD (lr / (staleness + 1))</source>
        <translation>DynSGD（学习率 / (陈旧度 + 1)）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="72"/>
        <source>Apply mode</source>
        <translation>应用模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="84"/>
        <source>Grouped mode (G groups) is not in this engine yet.</source>
        <translation>此引擎尚不支持分组模式（G 个组）。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="90"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="96"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="97"/>
        <source>Staleness bound s</source>
        <translation>陈旧度上限 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="98"/>
        <source>LR modulation</source>
        <translation>学习率调节</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="100"/>
        <source>Groups</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="101"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="106"/>
        <source>Workers</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="127"/>
        <source>Slowdown of worker %1: compute time x factor (1-10)</source>
        <translation>工作节点 %1 的减速：计算时间 × 系数（1–10）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="156"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::TimeChart</name>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="57"/>
        <source>Drag: zoom · Wheel: zoom · Shift+drag or middle drag, ←/→: pan · Double-click: follow the run</source>
        <translation>拖动：缩放 · 滚轮：缩放 · Shift+拖动或中键拖动、←/→：平移 · 双击：跟随运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="59"/>
        <source>time since start (s)</source>
        <translation>自开始以来的时间（秒）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="63"/>
        <source>wall-clock time</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="106"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="107"/>
        <source>%1
%2
%3</source>
        <translation>%1
%2
%3</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::TimeSplitChart</name>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="17"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="18"/>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="19"/>
        <source>waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="22"/>
        <source>Time split of the latest iteration</source>
        <translation>最近一次迭代的时间分配</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="30"/>
        <source>ms per iteration</source>
        <translation>每次迭代的毫秒数</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="53"/>
        <source>worker %1</source>
        <translation>工作节点 %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WorkerTableModel</name>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="37"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="38"/>
        <source>computing</source>
        <translation>计算中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="39"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="40"/>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="41"/>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="42"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="68"/>
        <source>Worker</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="69"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="70"/>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="71"/>
        <source>Samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="72"/>
        <source>Staleness</source>
        <translation>陈旧度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="73"/>
        <source>Dropped</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="74"/>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="75"/>
        <source>Slowdown</source>
        <translation>减速</translation>
    </message>
</context>
</TS>
