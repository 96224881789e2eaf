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
    <name>ExperimentPlots</name>
    <message>
        <location filename="../ui/plot/chart_png.cpp" line="36"/>
        <source>cannot write %1 (is the folder there and writable?)</source>
        <translation>无法写入 %1（文件夹是否存在且可写？）</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="77"/>
        <source>reproduced</source>
        <translation>已复现</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="78"/>
        <source>not reproduced</source>
        <translation>未复现</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="79"/>
        <source>not evaluated</source>
        <translation>未评估</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="86"/>
        <source>Time to target per seed (line: median over seeds)</source>
        <translation>各种子达到目标的时间（横线：各种子的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="98"/>
        <source>seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="105"/>
        <source>not reached (at the %1 s cap)</source>
        <translation>未达到（画在 %1 秒上限处）</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="140"/>
        <source>seconds to the target</source>
        <translation>达到目标的秒数</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="151"/>
        <source>Median over seeds (dot), 95% interval (bar)</source>
        <translation>各种子的中位数（点），95% 区间（条）</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="176"/>
        <source>within the limit</source>
        <translation>在界限内</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="177"/>
        <source>past the limit</source>
        <translation>超出界限</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="183"/>
        <source>limit</source>
        <translation>界限</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="192"/>
        <source>ratio (x)</source>
        <translation>比值（倍）</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="192"/>
        <source>points</source>
        <translation>百分点</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="21"/>
        <source>Time to %1% test accuracy (median over seeds)</source>
        <translation>达到 %1% 测试准确率的时间（各种子的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="21"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="22"/>
        <source>not reached</source>
        <translation>未达到</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="23"/>
        <source>Training throughput (median over seeds)</source>
        <translation>训练吞吐量（各种子的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="23"/>
        <source>samples/s, all workers</source>
        <translation>样本/秒，全部工作节点</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="24"/>
        <location filename="../ui/plot/delay_chart.cpp" line="26"/>
        <location filename="../ui/plot/delay_chart.cpp" line="28"/>
        <source>no value</source>
        <translation>无值</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="25"/>
        <source>Mean staleness of applied gradients (median over seeds)</source>
        <translation>已应用梯度的平均陈旧度（各种子的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="26"/>
        <source>staleness (model versions)</source>
        <translation>陈旧度（模型版本）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="27"/>
        <source>Test accuracy after %1 s of training (median over seeds)</source>
        <translation>训练 %1 秒后的测试准确率（各种子的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="28"/>
        <source>test accuracy (%)</source>
        <translation>测试准确率（%）</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="54"/>
        <source>extra delay of the straggler (%)</source>
        <translation>掉队节点的额外延迟（%）</translation>
    </message>
</context>
<context>
    <name>ScenarioMenu</name>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="24"/>
        <source>&amp;Open scenario file…</source>
        <translation>打开场景文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="25"/>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="26"/>
        <source>Scenarios (*.json);;All files (*)</source>
        <translation>场景文件 (*.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ScenarioParser</name>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="79"/>
        <source>unknown field &apos;%1&apos; (known here: %2)</source>
        <translation>未知字段“%1”（此处可用：%2）</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="86"/>
        <location filename="../ui/scenario/scenario_parser.cpp" line="106"/>
        <source>missing field &apos;%1&apos;</source>
        <translation>缺少字段“%1”</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="88"/>
        <source>&apos;%1&apos; must be a number</source>
        <translation>“%1”必须是数字</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="90"/>
        <source>&apos;%1&apos; is %2; it must be from %3 to %4</source>
        <translation>“%1”为 %2；必须在 %3 到 %4 之间</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="99"/>
        <source>&apos;%1&apos; must be a whole number</source>
        <translation>“%1”必须是整数</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="107"/>
        <source>&apos;%1&apos; must be a string</source>
        <translation>“%1”必须是字符串</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="115"/>
        <source>&apos;%1&apos; is &apos;%2&apos;; it must be one of %3</source>
        <translation>“%1”为“%2”；必须是 %3 之一</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="122"/>
        <source>&apos;%1&apos; must be true or false</source>
        <translation>“%1”必须是 true 或 false</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="160"/>
        <source>&apos;%1&apos; must map workers to groups, e.g. {&quot;3&quot;: 1} or [0, 0, 0, 1]</source>
        <translation>“%1”必须将工作节点映射到组，例如 {&quot;3&quot;: 1} 或 [0, 0, 0, 1]</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="166"/>
        <source>&apos;%1&apos; names worker &apos;%2&apos;; workers are 0 to %3</source>
        <translation>“%1”指定了工作节点“%2”；工作节点编号为 0 到 %3</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="169"/>
        <source>&apos;%1&apos; puts worker %2 in group %3; groups are 0 to %4</source>
        <translation>“%1”将工作节点 %2 放入组 %3；组编号为 0 到 %4</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="226"/>
        <source>&apos;group_by&apos; is &apos;explicit&apos; but there is no &apos;assignment&apos;</source>
        <translation>“group_by”为“explicit”，但没有“assignment”</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="249"/>
        <source>&apos;by&apos; is &apos;explicit&apos; but there is no &apos;assignment&apos;</source>
        <translation>“by”为“explicit”，但没有“assignment”</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="250"/>
        <source>missing field &apos;count&apos;</source>
        <translation>缺少字段“count”</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="277"/>
        <source>schedule entry %1</source>
        <translation>时间表第 %1 项</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="278"/>
        <source>must be an object like {&quot;at&quot;: 30, &quot;action&quot;: &quot;set_mode&quot;, …}</source>
        <translation>必须是形如 {&quot;at&quot;: 30, &quot;action&quot;: &quot;set_mode&quot;, …} 的对象</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="281"/>
        <source>schedule entry %1 (at %2 s)</source>
        <translation>时间表第 %1 项（第 %2 秒）</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="290"/>
        <source>unknown action &apos;%1&apos; (expected one of %2)</source>
        <translation>未知动作“%1”（应为 %2 之一）</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="294"/>
        <source>a &apos;note&apos; step needs a &apos;note&apos; text</source>
        <translation>“note”步骤需要“note”文本</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="319"/>
        <source>missing or not an object like {&quot;mode&quot;: &quot;bsp&quot;}</source>
        <translation>缺失，或不是形如 {&quot;mode&quot;: &quot;bsp&quot;} 的对象</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="322"/>
        <source>a run cannot start with &apos;group_by&apos;: &apos;explicit&apos; (the engine&apos;s --group-by takes round-robin or speed); start with one of those and add a set_groups step at 0</source>
        <translation>运行不能以“group_by”:“explicit”开始（引擎的 --group-by 只接受 round-robin 或 speed）；请以二者之一开始，并在第 0 秒添加一个 set_groups 步骤</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="327"/>
        <source>&apos;slowdowns&apos; must be a list like [{&quot;worker&quot;: 3, &quot;factor&quot;: 4}]</source>
        <translation>“slowdowns”必须是形如 [{&quot;worker&quot;: 3, &quot;factor&quot;: 4}] 的列表</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="330"/>
        <source>slowdowns entry %1</source>
        <translation>slowdowns 第 %1 项</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="332"/>
        <source>must be an object like {&quot;worker&quot;: 3, &quot;factor&quot;: 4}</source>
        <translation>必须是形如 {&quot;worker&quot;: 3, &quot;factor&quot;: 4} 的对象</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="348"/>
        <source>%1: not valid JSON at character %2: %3</source>
        <translation>%1：第 %2 个字符处不是有效的 JSON：%3</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="349"/>
        <source>%1: the scenario must be a JSON object</source>
        <translation>%1：场景必须是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="358"/>
        <source>%1: &apos;schedule&apos; must be a list of steps</source>
        <translation>%1：“schedule”必须是步骤列表</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="364"/>
        <source>comes after the run&apos;s end (&apos;max_seconds&apos; is %1)</source>
        <translation>晚于运行结束时间（“max_seconds”为 %1）</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="376"/>
        <source>%1: cannot read it: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="378"/>
        <source>%1: too large for a scenario (over 1 MiB)</source>
        <translation>%1：作为场景文件过大（超过 1 MiB）</translation>
    </message>
</context>
<context>
    <name>ScenarioText</name>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="18"/>
        <source>groups %1</source>
        <translation>分组 %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="19"/>
        <source>G=default</source>
        <translation>G=默认</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="20"/>
        <source>%1 by speed</source>
        <translation>%1 按速度</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="21"/>
        <source>%1 round robin</source>
        <translation>%1 轮询</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="35"/>
        <source>note</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="36"/>
        <source>switch to %1</source>
        <translation>切换到 %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="37"/>
        <source>regroup: %1</source>
        <translation>重新分组：%1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="41"/>
        <source>worker %1 back to full speed</source>
        <translation>工作节点 %1 恢复全速</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="43"/>
        <source>×%1 compute time</source>
        <translation>计算时间 ×%1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="44"/>
        <source>+%1 ms per iteration</source>
        <translation>每次迭代 +%1 ms</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="46"/>
        <source>×%1 with probability %2</source>
        <translation>以 %2 的概率 ×%1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="47"/>
        <source>+%1 ms before each push</source>
        <translation>每次推送前 +%1 ms</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="48"/>
        <source>slow worker %1: %2</source>
        <translation>减慢工作节点 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="50"/>
        <source>learning rate %1</source>
        <translation>学习率 %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="51"/>
        <source>pause for %1 s</source>
        <translation>暂停 %1 秒</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="51"/>
        <source>pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="52"/>
        <source>resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="53"/>
        <source>stop the run</source>
        <translation>停止运行</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/console_main.cpp" line="40"/>
        <source>Run &apos;syncscope --help&apos; for the flags.</source>
        <translation>运行“syncscope --help”查看所有选项。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="125"/>
        <source>SyncScope console: watch and steer distributed training</source>
        <translation>SyncScope 控制台：观察并操控分布式训练</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="129"/>
        <source>Attach to a coordinator&apos;s control endpoint (telemetry: port + 1).</source>
        <translation>连接到协调器的控制端点（遥测端口为该端口 + 1）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="131"/>
        <source>Start a local cluster with N workers.</source>
        <translation>启动一个有 N 个工作节点的本地集群。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="134"/>
        <source>The syncscope-engine binary for local clusters.</source>
        <translation>本地集群所用的 syncscope-engine 可执行文件。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="137"/>
        <source>Language of the console: de, zh_CN or en (default: the system locale).</source>
        <translation>控制台语言：de、zh_CN 或 en（默认：系统区域设置）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="141"/>
        <source>Save a PNG of the window to FILE after a while of running, stop a local cluster, and exit.</source>
        <translation>运行一段时间后将窗口截图保存为 PNG 文件 FILE，停止本地集群并退出。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="145"/>
        <source>Seconds of running before --screenshot grabs the window (default: 10).</source>
        <translation>--screenshot 截取窗口前运行的秒数（默认：10）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="149"/>
        <source>Size of the window in pixels (default: %1, at most the screen&apos;s).</source>
        <translation>窗口大小（像素，默认：%1，不超过屏幕大小）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="152"/>
        <source>Open a run recording for replay and export.</source>
        <translation>打开运行录制文件以回放和导出。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="156"/>
        <source>Play a classroom scenario on a local cluster: a scenario file, or the name of a shipped one (straggler-bsp, bsp-vs-asp, grouping-rescue).</source>
        <translation>在本地集群上播放教学场景：场景文件，或内置场景的名称（straggler-bsp、bsp-vs-asp、grouping-rescue）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="161"/>
        <source>With --attach: a credentials file holding a steer or view key (default: %1).</source>
        <translation>与 --attach 一起使用：包含操控或查看密钥的凭据文件（默认：%1）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="166"/>
        <source>With --attach: connect without authentication (a coordinator run with --insecure).</source>
        <translation>与 --attach 一起使用：不经认证连接（以 --insecure 运行的协调器）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="169"/>
        <source>Compare run recordings on the same charts, in a window of their own (give it once per recording; File → Compare runs… adds more).</source>
        <translation>在同一组图表中比较运行录制文件，显示在单独的窗口中（每个录制文件指定一次；文件 → 比较运行… 可添加更多）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="174"/>
        <source>Open an experiment&apos;s results (the --out folder of syncscope-engine experiment: its claims and figures) in a window of their own.</source>
        <translation>在单独的窗口中打开一次实验的结果（syncscope-engine experiment 的 --out 文件夹：其中的论断与图表）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="177"/>
        <source>Open the window maximised.</source>
        <translation>以最大化窗口打开。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="179"/>
        <source>Open the window full-screen (a projector: F11 leaves it).</source>
        <translation>以全屏打开窗口（用于投影仪：按 F11 退出）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="182"/>
        <source>Start in the presentation view: large type, the fine controls hidden (F5 toggles it).</source>
        <translation>以演示视图启动：大字体，隐藏细节控件（F5 切换）。</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="189"/>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>意外的参数“%1”</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="191"/>
        <source>give one of --attach, --local, --open and --scenario</source>
        <translation>请只指定 --attach、--local、--open 和 --scenario 中的一个</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="219"/>
        <source>--local &apos;%1&apos; must be a number of workers from 1 to %2</source>
        <translation>--local &apos;%1&apos; 必须是 1 到 %2 之间的工作节点数</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="229"/>
        <source>--screenshot needs --local N, --scenario FILE, --attach tcp://HOST:PORT, --compare FILE or --results DIR</source>
        <translation>--screenshot 需要 --local N、--scenario 文件、--attach tcp://主机:端口、--compare 文件 或 --results 文件夹</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="198"/>
        <source>--attach &apos;%1&apos; is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)</source>
        <translation>--attach“%1”不是 tcp://HOST:PORT 格式（例如 tcp://127.0.0.1:5556）</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="207"/>
        <source>--scenario &apos;%1&apos; is neither a file nor a shipped scenario (%2)</source>
        <translation>--scenario“%1”既不是文件，也不是内置场景（%2）</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="224"/>
        <source>no syncscope-engine at &apos;%1&apos;; give its path with --engine PATH</source>
        <translation>在“%1”找不到 syncscope-engine；请用 --engine PATH 指定其路径</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="234"/>
        <source>--screenshot-after &apos;%1&apos; must be a number of seconds from 0 to 86400</source>
        <translation>--screenshot-after“%1”必须是 0 到 86400 之间的秒数</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="238"/>
        <source>--screenshot-after needs --screenshot FILE</source>
        <translation>--screenshot-after 需要 --screenshot FILE</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="242"/>
        <source>give one of --maximized and --fullscreen</source>
        <translation>--maximized 和 --fullscreen 只能给出其一</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="248"/>
        <source>--window-size &apos;%1&apos; is not WIDTHxHEIGHT of at least %2 (e.g. 1280x720)</source>
        <translation>--window-size“%1”不是“宽x高”格式或小于 %2（例如 1280x720）</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="291"/>
        <source>syncscope: saved the window to &apos;%1&apos;</source>
        <translation>syncscope：窗口已保存到“%1”</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="294"/>
        <source>could not save the screenshot to &apos;%1&apos; (is the folder there and writable?)</source>
        <translation>无法将截图保存到“%1”（文件夹是否存在且可写？）</translation>
    </message>
</context>
<context>
    <name>syncscope::engine::ModeCatalog</name>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="59"/>
        <source>Staleness bound s</source>
        <translation>陈旧度上限 s</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="60"/>
        <source>Clocks a worker may run ahead of the slowest (0 is BSP)</source>
        <translation>工作节点可领先最慢节点的时钟数（0 即 BSP）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="62"/>
        <source>Learning rate for stale gradients</source>
        <translation>陈旧梯度的学习率</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="63"/>
        <source>none; inverse: lr/tau (Zhang et al.); dynsgd: lr/(tau+1)</source>
        <translation>无；反比：lr/tau（Zhang 等）；DynSGD：lr/(tau+1)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="65"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="66"/>
        <source>inverse (lr/tau)</source>
        <translation>反比（lr/tau）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="67"/>
        <source>dynsgd (lr/(tau+1))</source>
        <translation>DynSGD（lr/(tau+1)）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="68"/>
        <source>Groups G</source>
        <translation>组数 G</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="68"/>
        <source>Number of worker groups</source>
        <translation>工作节点组数</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="70"/>
        <source>Group by</source>
        <translation>分组依据</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="70"/>
        <source>How workers are put into groups</source>
        <translation>工作节点如何分组</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="72"/>
        <source>round robin</source>
        <translation>轮询</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="73"/>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="74"/>
        <source>explicit assignment</source>
        <translation>显式分配</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="75"/>
        <source>Inside a group</source>
        <translation>组内</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="76"/>
        <source>Synchronisation inside a group</source>
        <translation>组内同步方式</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="77"/>
        <source>BSP</source>
        <translation>BSP</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="77"/>
        <source>SSP (bound s)</source>
        <translation>SSP（上限 s）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="78"/>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="78"/>
        <source>ksync: gradients per version; kasync: gradients per update</source>
        <translation>ksync：每个版本的梯度数；kasync：每次更新的梯度数</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="80"/>
        <source>Barrier</source>
        <translation>屏障</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="81"/>
        <source>enforced: BSP; slack: SSP with bound s</source>
        <translation>强制：BSP；宽松：上限为 s 的 SSP</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="82"/>
        <source>enforced (BSP)</source>
        <translation>强制（BSP）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="82"/>
        <source>slack (SSP)</source>
        <translation>宽松（SSP）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="83"/>
        <source>A late worker&apos;s batch</source>
        <translation>迟到工作节点的批</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="84"/>
        <source>hand-off: the workers already waiting compute it (Falcon); wait: the round waits for the late worker</source>
        <translation>移交：由已在等待的工作节点计算（Falcon）；等待：本轮等待迟到的工作节点</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="86"/>
        <source>handed to waiting workers</source>
        <translation>移交给等待中的工作节点</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="86"/>
        <source>waited for</source>
        <translation>等待它</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="87"/>
        <source>Rebalance every</source>
        <translation>重新平衡间隔</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="88"/>
        <source>Seconds between batch-size rebalancing</source>
        <translation>批大小重新平衡之间的秒数</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="89"/>
        <source>Decide every</source>
        <translation>决策间隔</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="90"/>
        <source>Seconds between the controller&apos;s decisions</source>
        <translation>控制器两次决策之间的秒数</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="91"/>
        <source>Controller</source>
        <translation>控制器</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="92"/>
        <source>decide: switch by itself; advise: propose, a person takes or dismisses</source>
        <translation>决定：自行切换；建议：提出建议，由人采纳或忽略</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="93"/>
        <source>decides</source>
        <translation>决定</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="93"/>
        <source>advises</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="107"/>
        <source>BSP (bulk synchronous)</source>
        <translation>BSP（整体同步并行）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="108"/>
        <source>Wait for every worker, average their gradients, apply once. No staleness, but the slowest worker sets the pace.</source>
        <translation>等待每个工作节点，对其梯度取平均后一次性应用。陈旧度为 0，但由最慢的工作节点决定节奏。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="111"/>
        <source>ASP (asynchronous)</source>
        <translation>ASP（异步并行）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="112"/>
        <source>Apply each gradient as it arrives. Nobody waits, but gradients can be stale.</source>
        <translation>每个梯度一到达就应用。无需等待，但梯度可能是陈旧的。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="113"/>
        <source>SSP (stale synchronous)</source>
        <translation>SSP（延迟同步并行）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="114"/>
        <source>Apply on arrival; a worker more than s clocks ahead of the slowest waits. s = 0 is BSP.</source>
        <translation>到达即应用；领先最慢工作节点超过 s 个时钟的工作节点需等待。s = 0 即为 BSP。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="116"/>
        <source>Grouped (hybrid)</source>
        <translation>分组（混合）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="117"/>
        <source>G groups: BSP (or SSP) inside a group, groups update the model asynchronously. G = 1 is BSP, G = N is ASP.</source>
        <translation>G 个组：组内 BSP（或 SSP），各组异步更新模型。G = 1 即为 BSP，G = N 即为 ASP。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="121"/>
        <source>K-sync (backup workers)</source>
        <translation>K-sync（备份工作节点）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="122"/>
        <source>Average the first K gradients of each version; late ones are dropped and counted. K = N is BSP.</source>
        <translation>对每个版本最先到达的 K 个梯度取平均；迟到的梯度被丢弃并计数。K = N 即为 BSP。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="123"/>
        <source>N-1 (N below 4 workers)</source>
        <translation>N-1（少于 4 个工作节点时为 N）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="124"/>
        <source>K-async (n-softsync)</source>
        <translation>K-async（n-softsync）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="125"/>
        <source>Update after every K gradients from anyone, stale ones included. K = 1 is ASP.</source>
        <translation>每收到任意工作节点的 K 个梯度（包括陈旧梯度）就更新一次。K = 1 即为 ASP。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="126"/>
        <source>N/2</source>
        <translation>N/2</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="127"/>
        <source>Elastic batch</source>
        <translation>弹性批大小</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="128"/>
        <source>Each worker&apos;s batch is sized in proportion to its speed so all arrive together; enforced (BSP) or slack (SSP) barrier.</source>
        <translation>每个工作节点的批大小与其速度成正比，使所有节点同时到达；采用强制（BSP）或宽松（SSP）屏障。</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="132"/>
        <source>Auto (adaptive)</source>
        <translation>自动（自适应）</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="133"/>
        <source>A controller measures the workers&apos; speeds and picks mode and grouping; each decision appears as a marker with its reason. As an advisor it proposes and you decide.</source>
        <translation>控制器测量各工作节点的速度并选择模式和分组；每个决策都以带理由的标记显示。作为顾问时，它提出建议，由您决定。</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::AdvisorBar</name>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="23"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="24"/>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="35"/>
        <source>Keep the current mode; the advisor proposes again if the run changes</source>
        <translation>保持当前模式；运行发生变化时顾问会再次提出建议</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="65"/>
        <source>Advisor: switch from %1 to %2.</source>
        <translation>顾问：从 %1 切换到 %2。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="68"/>
        <source>Worker %1 takes %2 ms per iteration, the median worker %3 ms.</source>
        <translation>工作节点 %1 每次迭代需要 %2 ms，中位工作节点为 %3 ms。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="71"/>
        <source>Predicted: %1 samples/s at staleness %2</source>
        <translation>预测：%1 样本/s，陈旧度 %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="74"/>
        <source>(now %1 samples/s at %2).</source>
        <translation>（当前 %1 样本/s，陈旧度 %2）。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="101"/>
        <source>This console may only watch (view role)</source>
        <translation>此控制台只能观看（view 角色）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="110"/>
        <source>Switch to the proposed mode now (a change like any other: it can be rolled back)</source>
        <translation>立即切换到建议的模式（与其他更改一样，可以回滚）</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ChartsPanel</name>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="141"/>
        <source>Samples/s per worker</source>
        <translation>每个工作节点的样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <source>samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="28"/>
        <source>Staleness (mean per worker)</source>
        <translation>陈旧度（每个工作节点的平均值）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="28"/>
        <source>versions behind</source>
        <translation>落后的版本数</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="29"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="29"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="30"/>
        <source>Test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="30"/>
        <source>accuracy (%)</source>
        <translation>准确率（%）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="42"/>
        <source>All workers</source>
        <translation>所有工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="141"/>
        <source>Samples/s: the slowest workers</source>
        <translation>样本/s：最慢的工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="162"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="163"/>
        <source>worker %1</source>
        <translation>工作节点 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="145"/>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="146"/>
        <source>test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/charts_panel.cpp" line="167"/>
        <source>mean of %n workers</source>
        <translation>
            <numerusform>%n 个工作节点的平均值</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="169"/>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="171"/>
        <source>if %1</source>
        <translation>若 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="216"/>
        <source>Worker %1</source>
        <translation>工作节点 %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::CompareWindow</name>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="41"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="54"/>
        <source>start of training</source>
        <translation>训练开始</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="55"/>
        <source>first mode change</source>
        <translation>第一次模式切换</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="56"/>
        <source>first regrouping</source>
        <translation>第一次重新分组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="57"/>
        <source>first learning-rate change</source>
        <translation>第一次学习率更改</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="58"/>
        <source>first slowdown</source>
        <translation>第一次减速</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="59"/>
        <source>first rollback</source>
        <translation>第一次回滚</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="60"/>
        <source>first worker lost</source>
        <translation>第一次丢失工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="61"/>
        <source>first resume</source>
        <translation>第一次恢复</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="71"/>
        <source>Test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="71"/>
        <source>accuracy (%)</source>
        <translation>准确率（%）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="72"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="72"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="73"/>
        <source>Updates per second</source>
        <translation>每秒更新次数</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="73"/>
        <source>updates/s</source>
        <translation>更新/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="74"/>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="76"/>
        <source>Add recordings…</source>
        <translation>添加录制文件…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="77"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="85"/>
        <source>Align on:</source>
        <translation>对齐到：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="87"/>
        <source>Target accuracy:</source>
        <translation>目标准确率：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Aligned at</source>
        <translation>对齐于</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Time to target (s)</source>
        <translation>达到目标的时间（s）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Final accuracy</source>
        <translation>最终准确率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Staleness mean</source>
        <translation>陈旧度均值</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Staleness p99</source>
        <translation>陈旧度 p99</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Dropped</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="122"/>
        <source>Add two or more recordings (File → Record, or a run&apos;s --record file) to compare them.</source>
        <translation>添加两个或更多录制文件（文件 → 录制，或运行的 --record 文件）以进行比较。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="149"/>
        <source>Reading recordings: %1…</source>
        <translation>正在读取录制文件：%1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="170"/>
        <source>Could not read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="173"/>
        <source>Runs compared: %1</source>
        <translation>已比较的运行：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="225"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="225"/>
        <source>no such event: from the start</source>
        <translation>无此事件：从开始处</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="226"/>
        <source>not reached</source>
        <translation>未达到</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="227"/>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="227"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="244"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="251"/>
        <source>Recordings to compare</source>
        <translation>要比较的录制文件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="252"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope 录制文件 (*.ssrec);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="257"/>
        <source>Export the comparison</source>
        <translation>导出比较</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="258"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="261"/>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ConnectDialog</name>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="27"/>
        <source>Connect to a run</source>
        <translation>连接到训练任务</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="29"/>
        <source>Start a local cluster</source>
        <translation>启动本地集群</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="30"/>
        <source>Attach to a running coordinator</source>
        <translation>连接到正在运行的协调器</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="57"/>
        <source>A credentials file with a steer key (to steer) or a view key (to watch), from syncscope-engine keygen</source>
        <translation>由 syncscope-engine keygen 生成的凭据文件，含操控密钥（用于操控）或查看密钥（用于观看）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="59"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="61"/>
        <source>Credentials file</source>
        <translation>凭据文件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="67"/>
        <source>No authentication (a coordinator run with --insecure)</source>
        <translation>不认证（以 --insecure 运行的协调器）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="69"/>
        <source>Control endpoint</source>
        <translation>控制端点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="70"/>
        <source>Telemetry endpoint</source>
        <translation>遥测端点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="71"/>
        <source>Credentials</source>
        <translation>凭据</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="88"/>
        <source>Workers</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="89"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="90"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="92"/>
        <source>Stop</source>
        <translation>停止条件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="98"/>
        <source>when I stop it</source>
        <translation>手动停止时</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="99"/>
        <source>after epochs</source>
        <translation>指定轮次后</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="100"/>
        <source>after seconds of training</source>
        <translation>训练指定秒数后</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="101"/>
        <source>at test accuracy (%)</source>
        <translation>达到测试准确率（%）时</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="102"/>
        <source>A run that goes on until you press Stop leaves time to steer it</source>
        <translation>一直运行到按下停止的训练，留出操控它的时间</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::EventLabels</name>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="24"/>
        <source>advice %1: %2</source>
        <translation>建议 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="26"/>
        <source>advice %1 taken: %2</source>
        <translation>已采纳建议 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="27"/>
        <source>advice %1 dismissed</source>
        <translation>已忽略建议 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="30"/>
        <source>auto: %1</source>
        <translation>auto：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="31"/>
        <source>auto stays %1</source>
        <translation>auto 保持 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="42"/>
        <source>training started</source>
        <translation>训练开始</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="43"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="44"/>
        <source>resumed</source>
        <translation>已继续</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="45"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="46"/>
        <source>mode %1</source>
        <translation>模式 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="47"/>
        <source>regrouped</source>
        <translation>已重新分组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="48"/>
        <source>auto mode</source>
        <translation>自动模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="49"/>
        <source>batch sizes</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="50"/>
        <source>worker %1 slowdown</source>
        <translation>工作节点 %1 减速</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="51"/>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="52"/>
        <source>worker %1 joined</source>
        <translation>工作节点 %1 加入</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="53"/>
        <source>worker %1 lost</source>
        <translation>工作节点 %1 丢失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="54"/>
        <source>worker %1 rejoined</source>
        <translation>工作节点 %1 重新加入</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="55"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="56"/>
        <source>evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="57"/>
        <source>advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="58"/>
        <source>advice answered</source>
        <translation>建议已答复</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="59"/>
        <source>resumed from a checkpoint</source>
        <translation>从检查点恢复</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="60"/>
        <source>rollback</source>
        <translation>回滚</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="61"/>
        <source>checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="62"/>
        <source>recording</source>
        <translation>录制文件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="63"/>
        <source>parameter shard</source>
        <translation>参数分片</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="64"/>
        <source>hand-off</source>
        <translation>移交</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="65"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="73"/>
        <source>%n workers joined</source>
        <translation>
            <numerusform>%n 个工作节点加入</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="74"/>
        <source>%n workers lost</source>
        <translation>
            <numerusform>%n 个工作节点丢失</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="75"/>
        <source>%n workers rejoined</source>
        <translation>
            <numerusform>%n 个工作节点重新加入</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="76"/>
        <source>%n slowdowns</source>
        <translation>
            <numerusform>%n 次减速</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="80"/>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="87"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="91"/>
        <source>%1 s, version %2: %3</source>
        <translation>%1 s，版本 %2：%3</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::LocalClusterProcess</name>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="26"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>本地集群已在运行；请先停止它。</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="31"/>
        <source>The console starts a coordinator and its workers on this machine; start a cluster with shards, aggregators or other hosts with syncscope-engine run or launch, and attach to it.</source>
        <translation>控制台只在本机启动协调器及其工作进程；带分片、聚合器或其他主机的集群请用 syncscope-engine run 或 launch 启动，然后连接到它。</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="40"/>
        <source>Cannot make the local cluster&apos;s credentials: %1</source>
        <translation>无法创建本地集群的凭据：%1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="48"/>
        <source>Cannot make the local cluster&apos;s checkpoint folder: %1</source>
        <translation>无法创建本地集群的检查点文件夹：%1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="55"/>
        <source>Cannot start a local cluster: %1</source>
        <translation>无法启动本地集群：%1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="67"/>
        <source>The coordinator exited before it was ready (its error is in the terminal)</source>
        <translation>协调器在就绪前退出（错误信息见终端）</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="76"/>
        <source>Cannot start the workers: %1</source>
        <translation>无法启动工作进程：%1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="85"/>
        <source>Final test accuracy %1% at model version %2</source>
        <translation>最终测试准确率 %1%，模型版本 %2</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="89"/>
        <source>The run could not go on: %1</source>
        <translation>运行无法继续：%1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="127"/>
        <source>The local cluster keeps running; attach again with --credentials %1</source>
        <translation>本地集群继续运行；可用 --credentials %1 重新连接</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="130"/>
        <source>Its checkpoints stay in %1</source>
        <translation>其检查点保留在 %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::LogPanel</name>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="20"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="25"/>
        <location filename="../ui/widgets/log_panel.cpp" line="57"/>
        <source>Show the whole log</source>
        <translation>显示完整日志</translation>
    </message>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="57"/>
        <source>Show only the newest line</source>
        <translation>只显示最新一行</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::MainWindow</name>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="67"/>
        <source>waiting for workers</source>
        <translation>等待工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="68"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="69"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="70"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="71"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="78"/>
        <source>SyncScope</source>
        <translation>SyncScope</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="88"/>
        <source>Taking advice %1</source>
        <translation>正在采纳建议 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="88"/>
        <source>Dismissing advice %1</source>
        <translation>正在忽略建议 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="106"/>
        <source>Scenario at %1 s: %2</source>
        <translation>场景第 %1 秒：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="111"/>
        <source>Note: %1</source>
        <translation>提示：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="114"/>
        <source>Scenario over: %1</source>
        <translation>场景已结束：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="120"/>
        <location filename="../ui/widgets/main_window.cpp" line="222"/>
        <source>Not attached</source>
        <translation>未连接</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="121"/>
        <source>Detached: %1</source>
        <translation>已断开：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="124"/>
        <source>Connection lost: %1</source>
        <translation>连接丢失：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="135"/>
        <source>Steering</source>
        <translation>操控</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="140"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="149"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="158"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="159"/>
        <source>&amp;Attach…</source>
        <translation>连接(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="160"/>
        <source>Start &amp;local cluster…</source>
        <translation>启动本地集群(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="161"/>
        <source>&amp;Detach</source>
        <translation>断开(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="165"/>
        <source>&amp;Compare runs…</source>
        <translation>比较运行(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="166"/>
        <source>Open experiment &amp;results…</source>
        <translation>打开实验结果(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="170"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="171"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="174"/>
        <source>Roll &amp;back a change…</source>
        <translation>回滚一次更改(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="178"/>
        <source>Restore the model, optimiser and mode from the checkpoint taken before a change</source>
        <translation>从更改前的检查点恢复模型、优化器和模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="179"/>
        <source>&amp;Scenarios</source>
        <translation>场景(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="182"/>
        <source>Stop &amp;following the scenario</source>
        <translation>停止跟随场景(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="187"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="188"/>
        <source>&amp;Wall-clock time axis</source>
        <translation>挂钟时间轴(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="191"/>
        <source>W&amp;hat-if curves</source>
        <translation>假设曲线(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="200"/>
        <source>&amp;Log-scale loss</source>
        <translation>对数刻度损失(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="204"/>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="208"/>
        <source>&amp;Presentation view</source>
        <translation>演示视图(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="210"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="211"/>
        <source>Large type for a projector; hides the fine controls and the log</source>
        <translation>适合投影仪的大字号；隐藏精细控件和日志</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="255"/>
        <source>Cannot attach: give both endpoints as tcp://HOST:PORT.</source>
        <translation>无法连接：请以 tcp://HOST:PORT 格式给出两个端点。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="260"/>
        <source>Attaching to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="280"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="283"/>
        <source>Opening %1 cancelled.</source>
        <translation>已取消打开 %1。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="296"/>
        <source>Replay: %1</source>
        <translation>回放：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="297"/>
        <source>Opened recording %1 (%2 s)</source>
        <translation>已打开录制文件 %1（%2 s）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="301"/>
        <source>Exported the charts to %1</source>
        <translation>已将图表导出到 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="319"/>
        <source>State: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="320"/>
        <source>Mode: %1</source>
        <translation>模式：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="321"/>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="322"/>
        <source>Accuracy: –</source>
        <translation>准确率：–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="323"/>
        <source>Accuracy: %1%</source>
        <translation>准确率：%1%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="333"/>
        <source>Runs until you stop it: Run → Stop (%1)</source>
        <translation>运行直到手动停止：运行 → 停止（%1）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="335"/>
        <source>%1 epochs</source>
        <translation>%1 个轮次</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="336"/>
        <source>%1 s of training</source>
        <translation>训练 %1 秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="337"/>
        <source>%1% test accuracy</source>
        <translation>测试准确率 %1%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="338"/>
        <source>Stops at %1, or with Run → Stop (%2)</source>
        <translation>在 %1 时停止，或通过 运行 → 停止（%2）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="338"/>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="344"/>
        <source>UNAUTHENTICATED: anyone on this machine may steer (--insecure)</source>
        <translation>未认证：本机任何人都可操控（--insecure）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="345"/>
        <source>View only</source>
        <translation>仅查看</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="355"/>
        <source>[%1 s] %2</source>
        <translation>[%1 s] %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="356"/>
        <source> (change %1)</source>
        <translation>（更改 %1）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="378"/>
        <source>Rolling back to before change %1</source>
        <translation>正在回滚到更改 %1 之前</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="399"/>
        <source>Command %1 refused: %2</source>
        <translation>命令 %1 被拒绝：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="408"/>
        <source>Command %1 done: %2</source>
        <translation>命令 %1 已完成：%2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="408"/>
        <source>no event</source>
        <translation>无事件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="415"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>本地集群已在运行；请先停止它。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="419"/>
        <source>Cannot start a local cluster: %1</source>
        <translation>无法启动本地集群：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="426"/>
        <source>Starting a local cluster: %1 workers, %2, %3%4</source>
        <translation>正在启动本地集群：%1 个工作节点，%2，%3%4</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="442"/>
        <source>The local cluster has stopped.</source>
        <translation>本地集群已停止。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="451"/>
        <source>Stopping the local cluster…</source>
        <translation>正在停止本地集群…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="478"/>
        <location filename="../ui/widgets/main_window.cpp" line="510"/>
        <source>Stop the local cluster?</source>
        <translation>停止本地集群？</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="479"/>
        <source>This window started a local cluster. Stop its coordinator and workers?</source>
        <translation>此窗口启动了一个本地集群。要停止其协调器和工作节点吗？</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="500"/>
        <source>Cannot run the scenario: %1</source>
        <translation>无法运行场景：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="511"/>
        <source>A local cluster is running. Stop it and start the scenario &quot;%1&quot;?</source>
        <translation>本地集群正在运行。要停止它并启动场景“%1”吗？</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="521"/>
        <source>Scenario: %1 (%2)</source>
        <translation>场景：%1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="531"/>
        <source>Scenario %1 s · next: %2</source>
        <translation>场景 %1 s · 下一步：%2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ModeEditor</name>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="27"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="91"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="170"/>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::NetworkWorker</name>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="28"/>
        <source>attached to %1: %2, %3 workers, %4; %5 ticks and %6 events of history</source>
        <translation>已连接到 %1：%2，%3 个工作节点，%4；历史记录含 %5 个时间点和 %6 个事件</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="44"/>
        <source>re-attaching to %1</source>
        <translation>正在重新连接到 %1</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="51"/>
        <source>%1 holds no steer or view keys; ask for a console&apos;s file (syncscope-engine keygen --role steer or view)</source>
        <translation>%1 不含操控或查看密钥；请索取控制台用的文件（syncscope-engine keygen --role steer 或 view）</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="72"/>
        <source>cannot connect to %1 and %2: %3 (expected endpoints like tcp://HOST:PORT)</source>
        <translation>无法连接到 %1 和 %2：%3（端点应形如 tcp://HOST:PORT）</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="85"/>
        <source>detached from %1</source>
        <translation>已断开与 %1 的连接</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="91"/>
        <source>the console built an unreadable request</source>
        <translation>控制台生成了无法读取的请求</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="95"/>
        <source>not attached to a coordinator</source>
        <translation>未连接到协调器</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="101"/>
        <source>could not send to %1: %2</source>
        <translation>无法发送到 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="106"/>
        <source>the console is closing</source>
        <translation>控制台正在关闭</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="122"/>
        <source>network error on %1: %2</source>
        <translation>%1 上的网络错误：%2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="164"/>
        <source>no telemetry from %1 within 5 s: is a coordinator running there?</source>
        <translation>5 秒内未收到来自 %1 的遥测数据：那里有协调器在运行吗？</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="168"/>
        <source>no snapshot reply from %1 within 5 s: is it the control endpoint of the coordinator at %2?</source>
        <translation>5 秒内未收到来自 %1 的快照回复：它是位于 %2 的协调器的控制端点吗？</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="174"/>
        <source>no telemetry from %1 for 3 s: the coordinator stopped or the network is down; waiting for it to come back</source>
        <translation>3 秒内未收到来自 %1 的遥测数据：协调器已停止或网络中断；正在等待其恢复</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="182"/>
        <source>no reply from %1 within 5 s</source>
        <translation>5 秒内未收到来自 %1 的回复</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="219"/>
        <source>the coordinator at %1 refused the snapshot request: %2</source>
        <translation>位于 %1 的协调器拒绝了快照请求：%2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::RecordingTask</name>
    <message>
        <location filename="../ui/widgets/recording_task.cpp" line="16"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/widgets/recording_task.cpp" line="18"/>
        <source>SyncScope</source>
        <translation>SyncScope</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ReplayBar</name>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="30"/>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="33"/>
        <location filename="../ui/widgets/replay_bar.cpp" line="118"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="34"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="39"/>
        <source>Replay position: drag to seek</source>
        <translation>回放位置：拖动以跳转</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="41"/>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="43"/>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="56"/>
        <source>&amp;Open recording…</source>
        <translation>打开录制文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="57"/>
        <source>Open recording</source>
        <translation>打开录制文件</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="58"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope 录制文件 (*.ssrec);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="61"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="63"/>
        <source>&amp;CSV…</source>
        <translation>CSV(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="66"/>
        <source>&amp;JSON Lines…</source>
        <translation>JSON Lines(&amp;J)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="67"/>
        <source>Export JSON Lines</source>
        <translation>导出 JSON Lines</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="67"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="69"/>
        <source>&amp;Trace (Chrome, Perfetto)…</source>
        <translation>跟踪（Chrome、Perfetto）(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="70"/>
        <source>Export trace</source>
        <translation>导出跟踪</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="70"/>
        <source>Chrome trace JSON (*.json)</source>
        <translation>Chrome 跟踪 JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="72"/>
        <source>Tensor&amp;Board event files…</source>
        <translation>TensorBoard 事件文件(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="84"/>
        <source>Export TensorBoard event files into</source>
        <translation>将 TensorBoard 事件文件导出到</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="93"/>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="95"/>
        <source>Exported the recording to %1</source>
        <translation>已将录制文件导出到 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="103"/>
        <source>Exports an open recording: record a live run with --record, then open it.</source>
        <translation>导出已打开的录制文件：先用 --record 录制一次实时运行，然后打开它。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="114"/>
        <source>%1 s / %2 s</source>
        <translation>%1 s / %2 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="118"/>
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
        <location filename="../ui/widgets/replay_controller.cpp" line="120"/>
        <source>No recording is open: open one with File → Open recording… first.</source>
        <translation>没有打开的录制文件：请先通过 文件 → 打开录制文件… 打开一个。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="122"/>
        <source>Cannot export to %1: the name must end in .csv, .jsonl or .json (a trace).</source>
        <translation>无法导出到 %1：文件名必须以 .csv、.jsonl 或 .json（跟踪）结尾。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="135"/>
        <source>Export to %1 cancelled.</source>
        <translation>已取消导出到 %1。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="136"/>
        <source>Export to %1 failed: %2</source>
        <translation>导出到 %1 失败：%2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ResultsWindow</name>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="71"/>
        <source>Experiment results</source>
        <translation>实验结果</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="73"/>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="74"/>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="76"/>
        <source>Read the folder again (an experiment still running adds runs and, at its end, the claims)</source>
        <translation>重新读取文件夹（仍在运行的实验会添加运行记录，并在结束时写入论断）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="84"/>
        <source>Claim or figure</source>
        <translation>论断或图表</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="84"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="133"/>
        <source>Open the folder an experiment wrote (syncscope-engine experiment --out DIR).</source>
        <translation>打开一次实验写出的文件夹（syncscope-engine experiment --out 文件夹）。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="139"/>
        <source>Open an experiment folder</source>
        <translation>打开实验文件夹</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="150"/>
        <source>Nothing to show: %1</source>
        <translation>没有可显示的内容：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="172"/>
        <source>Claims: %1 (quick)</source>
        <translation>论断：%1（快速）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="173"/>
        <source>Claims: %1</source>
        <translation>论断：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="186"/>
        <source>Figures</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="186"/>
        <source>Part: %1</source>
        <translation>部分：%1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="221"/>
        <source>The paper:</source>
        <translation>论文：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="222"/>
        <source>Ours:</source>
        <translation>我们的结果：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="222"/>
        <source>parts %1</source>
        <translation>部分 %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="224"/>
        <source>Run with:</source>
        <translation>运行命令：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="225"/>
        <location filename="../ui/widgets/results_window.cpp" line="238"/>
        <source>Not read:</source>
        <translation>未读取：</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="237"/>
        <source>From</source>
        <translation>来自</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::RollbackPicker</name>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="17"/>
        <source>change %1 at %2 s: %3</source>
        <translation>更改 %1（%2 s）：%3</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="28"/>
        <location filename="../ui/widgets/rollback_picker.cpp" line="36"/>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="29"/>
        <source>This run has made no change yet that can be rolled back.</source>
        <translation>本次运行还没有可以回滚的更改。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="37"/>
        <source>Restore the model, optimiser and mode from before this change (later updates are undone):</source>
        <translation>恢复此更改之前的模型、优化器和模式（之后的更新将被撤销）：</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ScenarioBanner</name>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="65"/>
        <source>%1 s  %2</source>
        <translation>%1 s  %2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="70"/>
        <source>Training time %1 s</source>
        <translation>训练时间 %1 s</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="72"/>
        <source>Next: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="79"/>
        <source>skipped: the run ended first</source>
        <translation>已跳过：运行已先行结束</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ScenarioRunner</name>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="40"/>
        <source>No scenario</source>
        <translation>无场景</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="42"/>
        <source>No more steps</source>
        <translation>没有更多步骤</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="42"/>
        <source>Scenario over</source>
        <translation>场景已结束</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="44"/>
        <source>at %1 s: %2</source>
        <translation>第 %1 秒：%2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::StalenessHistogram</name>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="19"/>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="35"/>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="21"/>
        <source>Staleness histogram</source>
        <translation>陈旧度直方图</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="32"/>
        <source>staleness τ</source>
        <translation>陈旧度 τ</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="51"/>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::SteeringPanel</name>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="71"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="74"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="75"/>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="76"/>
        <location filename="../ui/widgets/steering_panel.cpp" line="369"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="77"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="78"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="79"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="94"/>
        <source>Synchronisation</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="105"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="107"/>
        <source>Send the selected mode and its parameters to the engine</source>
        <translation>将所选模式及其参数发送给引擎</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="110"/>
        <source>Groups G</source>
        <translation>组数 G</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="103"/>
        <source>The mode the engine is running now</source>
        <translation>引擎当前运行的模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="106"/>
        <source>Apply mode</source>
        <translation>应用模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="116"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="122"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="135"/>
        <source>by count</source>
        <translation>按数量</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="136"/>
        <source>by speed</source>
        <translation>按速度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="137"/>
        <source>By count: workers dealt round robin. By speed: workers of similar measured speed together.</source>
        <translation>按数量：工作节点轮流分配。按速度：测得速度相近的工作节点分在同一组。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="160"/>
        <source>Workers</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="219"/>
        <source>Slowdown of worker %1: compute time x factor (1-10)</source>
        <translation>工作节点 %1 的减速：计算时间 × 系数（1–10）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="278"/>
        <source>Number of groups G; releasing the slider regroups a grouped run</source>
        <translation>组数 G；松开滑块即对分组运行重新分组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="279"/>
        <source>Groups apply to the grouped mode only</source>
        <translation>分组仅适用于分组模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="346"/>
        <source>This console holds a view key: it may watch the run, not steer it</source>
        <translation>此控制台持有查看密钥：只能观看运行，不能操控</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="369"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::TimeChart</name>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="45"/>
        <source>Drag: zoom · Wheel: zoom · Shift+drag or middle drag, ←/→: pan · Double-click: follow the run</source>
        <translation>拖动：缩放 · 滚轮：缩放 · Shift+拖动或中键拖动、←/→：平移 · 双击：跟随运行</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="152"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="153"/>
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
        <location filename="../ui/widgets/time_split_chart.cpp" line="21"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="22"/>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="23"/>
        <source>waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="26"/>
        <source>Time per iteration</source>
        <translation>每次迭代耗时</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="35"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="34"/>
        <source>worker</source>
        <translation>工作节点</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WhatIfPanel</name>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="33"/>
        <source>What if (predicted)</source>
        <translation>假如切换（预测）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="37"/>
        <source>What each mode would do if the run switched to it now, predicted from each worker&apos;s measured compute and communication times; the time to the target from the accuracy curve so far. The charts draw the predictions as dashed lines: tick a row to show or hide one, this box to show or hide them all.</source>
        <translation>如果运行现在切换到各模式会怎样：根据每个 worker 实测的计算与通信时间预测；到达目标的时间依据目前的准确率曲线。图表以虚线显示预测：勾选一行可显示或隐藏该模式，勾选此框可显示或隐藏全部。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>staleness</source>
        <translation>陈旧度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>to target</source>
        <translation>到达目标</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="77"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="78"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="79"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="129"/>
        <source>to %1%</source>
        <translation>到 %1%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="135"/>
        <source>Predicted time to the run&apos;s target accuracy</source>
        <translation>预计达到本次运行目标准确率的时间</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="136"/>
        <source>Predicted time to 2 points above the best accuracy so far (the run has no target accuracy)</source>
        <translation>预计比目前最佳准确率高 2 个百分点所需的时间（本次运行未设目标准确率）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="177"/>
        <source>The forecast puts the model there by now; the next evaluation tells</source>
        <translation>按预测模型现在已达到该值；下一次评估将确认</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="108"/>
        <source>%1 (now)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="117"/>
        <source>The mode running now: its live lines are in the charts</source>
        <translation>当前运行的模式：其实时曲线在图表中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="118"/>
        <source>Tick to draw this mode&apos;s predicted samples/s and staleness in the charts</source>
        <translation>勾选后在图表中绘制该模式预测的样本/s 与陈旧度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="175"/>
        <source>by now</source>
        <translation>应已达到</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="176"/>
        <source>No forecast yet: it needs three evaluations with the accuracy still rising</source>
        <translation>尚无预测：需要三次准确率仍在上升的评估</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WorkerHeatmap</name>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="35"/>
        <source>Click a row to show that worker&apos;s lines</source>
        <translation>点击一行以显示该工作节点的曲线</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="40"/>
        <source>Samples/s per worker</source>
        <translation>每个工作节点的样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="41"/>
        <source>Staleness per worker</source>
        <translation>每个工作节点的陈旧度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="42"/>
        <source>Share of time waiting</source>
        <translation>等待时间占比</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="192"/>
        <source>No figures yet</source>
        <translation>尚无数据</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="209"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WorkerTableModel</name>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="102"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="103"/>
        <source>computing</source>
        <translation>计算中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="104"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="105"/>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="106"/>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="107"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="113"/>
        <source>chronic</source>
        <translation>长期</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="114"/>
        <source>brief</source>
        <translation>偶尔</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="115"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="138"/>
        <source>Below %1% of the median worker&apos;s samples/s in %2% of the last %3 s; %4% of its speed on average</source>
        <translation>在最近 %3 秒中有 %2% 的时间低于中位工作节点样本/s 的 %1%；平均为其速度的 %4%</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="146"/>
        <source>Worker %1&apos;s process runs under a CPU limit of %2 CPUs (a quota on its cgroup: a container&apos;s or Slurm&apos;s CPU limit, or run --cpu-quota). The coordinator times its iterations by its CPU time over that limit, so elastic sizes its batch by it.</source>
        <translation>工作节点 %1 的进程受 %2 个 CPU 的限制（其 cgroup 的配额：容器或 Slurm 的 CPU 限制，或 run --cpu-quota）。协调器按其 CPU 时间除以该限制来估算它的迭代时间，elastic 据此确定它的批大小。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="156"/>
        <source>Double-click to move worker %1 to another group (0-%2)</source>
        <translation>双击可将工作节点 %1 移到另一个组（0-%2）</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="157"/>
        <source>Groups can be edited in the grouped mode</source>
        <translation>分组可在分组模式下编辑</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="174"/>
        <source>%1 CPU</source>
        <comment>the CPU limit of a worker&apos;s process, in CPUs</comment>
        <translation>%1 CPU</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="204"/>
        <source>Chronic: slower than the median worker for most of the last %1 s (a slow machine); brief: now and then (transient hiccups). Click a header to sort; this one puts the slowest first.</source>
        <translation>长期：在最近 %1 秒的大部分时间里慢于中位工作节点（机器较慢）；偶尔：时不时变慢（短暂卡顿）。点击列标题可排序；此列将最慢的排在最前。</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="209"/>
        <source>Worker</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="210"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="211"/>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="212"/>
        <source>Samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="213"/>
        <source>Lag</source>
        <translation>滞后</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="214"/>
        <source>Staleness</source>
        <translation>陈旧度</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="215"/>
        <source>Dropped</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="216"/>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="217"/>
        <source>Slowdown</source>
        <translation>减速</translation>
    </message>
</context>
</TS>
