<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ChartExport</name>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="26"/>
        <source>SyncScope charts</source>
        <translation>SyncScope-Diagramme</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="28"/>
        <location filename="../ui/widgets/chart_export.cpp" line="42"/>
        <source>Cannot write %1: check that the folder is writable.</source>
        <translation>%1 kann nicht geschrieben werden: prüfen, ob der Ordner beschreibbar ist.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="40"/>
        <source>Cannot export charts to %1: the name must end in .png or .svg.</source>
        <translation>Diagramme können nicht nach %1 exportiert werden: der Name muss auf .png oder .svg enden.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="53"/>
        <source>Export c&amp;harts</source>
        <translation>&amp;Diagramme exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="56"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="57"/>
        <source>Export charts as %1</source>
        <translation>Diagramme als %1 exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/chart_export.cpp" line="58"/>
        <source>%1 images (*.%2)</source>
        <translation>%1-Bilder (*.%2)</translation>
    </message>
</context>
<context>
    <name>ExperimentPlots</name>
    <message>
        <location filename="../ui/plot/chart_png.cpp" line="36"/>
        <source>cannot write %1 (is the folder there and writable?)</source>
        <translation>kann %1 nicht schreiben (gibt es den Ordner, ist er beschreibbar?)</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="77"/>
        <source>reproduced</source>
        <translation>reproduziert</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="78"/>
        <source>not reproduced</source>
        <translation>nicht reproduziert</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="79"/>
        <source>not evaluated</source>
        <translation>nicht ausgewertet</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="86"/>
        <source>Time to target per seed (line: median over seeds)</source>
        <translation>Zeit bis zum Ziel je Seed (Strich: Median über die Seeds)</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="98"/>
        <source>seed %1</source>
        <translation>Seed %1</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="105"/>
        <source>not reached (at the %1 s cap)</source>
        <translation>nicht erreicht (an der Grenze von %1 s)</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="140"/>
        <source>seconds to the target</source>
        <translation>Sekunden bis zum Ziel</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="151"/>
        <source>Median over seeds (dot), 95% interval (bar)</source>
        <translation>Median über die Seeds (Punkt), 95-%-Intervall (Balken)</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="176"/>
        <source>within the limit</source>
        <translation>innerhalb der Grenze</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="177"/>
        <source>past the limit</source>
        <translation>über der Grenze</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="183"/>
        <source>limit</source>
        <translation>Grenze</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="192"/>
        <source>ratio (x)</source>
        <translation>Verhältnis (x)</translation>
    </message>
    <message>
        <location filename="../ui/plot/claim_charts.cpp" line="192"/>
        <source>points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="21"/>
        <source>Time to %1% test accuracy (median over seeds)</source>
        <translation>Zeit bis %1 % Testgenauigkeit (Median über die Seeds)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="21"/>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="22"/>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="23"/>
        <source>Training throughput (median over seeds)</source>
        <translation>Trainingsdurchsatz (Median über die Seeds)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="23"/>
        <source>samples/s, all workers</source>
        <translation>Beispiele/s, alle Worker</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="24"/>
        <location filename="../ui/plot/delay_chart.cpp" line="26"/>
        <location filename="../ui/plot/delay_chart.cpp" line="28"/>
        <source>no value</source>
        <translation>kein Wert</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="25"/>
        <source>Mean staleness of applied gradients (median over seeds)</source>
        <translation>Mittlere Veraltung angewandter Gradienten (Median über die Seeds)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="26"/>
        <source>staleness (model versions)</source>
        <translation>Veraltung (Modellversionen)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="27"/>
        <source>Test accuracy after %1 s of training (median over seeds)</source>
        <translation>Testgenauigkeit nach %1 s Training (Median über die Seeds)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="28"/>
        <source>test accuracy (%)</source>
        <translation>Testgenauigkeit (%)</translation>
    </message>
    <message>
        <location filename="../ui/plot/delay_chart.cpp" line="54"/>
        <source>extra delay of the straggler (%)</source>
        <translation>zusätzliche Verzögerung des Nachzüglers (%)</translation>
    </message>
</context>
<context>
    <name>ScenarioMenu</name>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="24"/>
        <source>&amp;Open scenario file…</source>
        <translation>Szenario&amp;datei öffnen…</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="25"/>
        <source>Open scenario</source>
        <translation>Szenario öffnen</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_menu.cpp" line="26"/>
        <source>Scenarios (*.json);;All files (*)</source>
        <translation>Szenarien (*.json);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>ScenarioParser</name>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="79"/>
        <source>unknown field &apos;%1&apos; (known here: %2)</source>
        <translation>unbekanntes Feld „%1“ (hier bekannt: %2)</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="86"/>
        <location filename="../ui/scenario/scenario_parser.cpp" line="106"/>
        <source>missing field &apos;%1&apos;</source>
        <translation>fehlendes Feld „%1“</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="88"/>
        <source>&apos;%1&apos; must be a number</source>
        <translation>„%1“ muss eine Zahl sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="90"/>
        <source>&apos;%1&apos; is %2; it must be from %3 to %4</source>
        <translation>„%1“ ist %2; der Wert muss zwischen %3 und %4 liegen</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="99"/>
        <source>&apos;%1&apos; must be a whole number</source>
        <translation>„%1“ muss eine ganze Zahl sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="107"/>
        <source>&apos;%1&apos; must be a string</source>
        <translation>„%1“ muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="115"/>
        <source>&apos;%1&apos; is &apos;%2&apos;; it must be one of %3</source>
        <translation>„%1“ ist „%2“; der Wert muss einer von %3 sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="122"/>
        <source>&apos;%1&apos; must be true or false</source>
        <translation>„%1“ muss true oder false sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="160"/>
        <source>&apos;%1&apos; must map workers to groups, e.g. {&quot;3&quot;: 1} or [0, 0, 0, 1]</source>
        <translation>„%1“ muss Worker Gruppen zuordnen, z. B. {&quot;3&quot;: 1} oder [0, 0, 0, 1]</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="166"/>
        <source>&apos;%1&apos; names worker &apos;%2&apos;; workers are 0 to %3</source>
        <translation>„%1“ nennt Worker „%2“; die Worker sind 0 bis %3</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="169"/>
        <source>&apos;%1&apos; puts worker %2 in group %3; groups are 0 to %4</source>
        <translation>„%1“ setzt Worker %2 in Gruppe %3; die Gruppen sind 0 bis %4</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="226"/>
        <source>&apos;group_by&apos; is &apos;explicit&apos; but there is no &apos;assignment&apos;</source>
        <translation>„group_by“ ist „explicit“, aber es gibt kein „assignment“</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="249"/>
        <source>&apos;by&apos; is &apos;explicit&apos; but there is no &apos;assignment&apos;</source>
        <translation>„by“ ist „explicit“, aber es gibt kein „assignment“</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="250"/>
        <source>missing field &apos;count&apos;</source>
        <translation>fehlendes Feld „count“</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="277"/>
        <source>schedule entry %1</source>
        <translation>Zeitplaneintrag %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="278"/>
        <source>must be an object like {&quot;at&quot;: 30, &quot;action&quot;: &quot;set_mode&quot;, …}</source>
        <translation>muss ein Objekt wie {&quot;at&quot;: 30, &quot;action&quot;: &quot;set_mode&quot;, …} sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="281"/>
        <source>schedule entry %1 (at %2 s)</source>
        <translation>Zeitplaneintrag %1 (bei %2 s)</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="290"/>
        <source>unknown action &apos;%1&apos; (expected one of %2)</source>
        <translation>unbekannte Aktion „%1“ (erwartet wird eine von %2)</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="294"/>
        <source>a &apos;note&apos; step needs a &apos;note&apos; text</source>
        <translation>ein „note“-Schritt braucht einen „note“-Text</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="319"/>
        <source>missing or not an object like {&quot;mode&quot;: &quot;bsp&quot;}</source>
        <translation>fehlt oder ist kein Objekt wie {&quot;mode&quot;: &quot;bsp&quot;}</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="322"/>
        <source>a run cannot start with &apos;group_by&apos;: &apos;explicit&apos; (the engine&apos;s --group-by takes round-robin or speed); start with one of those and add a set_groups step at 0</source>
        <translation>ein Lauf kann nicht mit „group_by“: „explicit“ beginnen (--group-by der Engine akzeptiert round-robin oder speed); mit einem davon beginnen und bei 0 einen set_groups-Schritt hinzufügen</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="327"/>
        <source>&apos;slowdowns&apos; must be a list like [{&quot;worker&quot;: 3, &quot;factor&quot;: 4}]</source>
        <translation>„slowdowns“ muss eine Liste wie [{&quot;worker&quot;: 3, &quot;factor&quot;: 4}] sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="330"/>
        <source>slowdowns entry %1</source>
        <translation>slowdowns-Eintrag %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="332"/>
        <source>must be an object like {&quot;worker&quot;: 3, &quot;factor&quot;: 4}</source>
        <translation>muss ein Objekt wie {&quot;worker&quot;: 3, &quot;factor&quot;: 4} sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="348"/>
        <source>%1: not valid JSON at character %2: %3</source>
        <translation>%1: kein gültiges JSON bei Zeichen %2: %3</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="349"/>
        <source>%1: the scenario must be a JSON object</source>
        <translation>%1: das Szenario muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="358"/>
        <source>%1: &apos;schedule&apos; must be a list of steps</source>
        <translation>%1: „schedule“ muss eine Liste von Schritten sein</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="364"/>
        <source>comes after the run&apos;s end (&apos;max_seconds&apos; is %1)</source>
        <translation>liegt nach dem Ende des Laufs („max_seconds“ ist %1)</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="376"/>
        <source>%1: cannot read it: %2</source>
        <translation>%1: kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_parser.cpp" line="378"/>
        <source>%1: too large for a scenario (over 1 MiB)</source>
        <translation>%1: zu groß für ein Szenario (über 1 MiB)</translation>
    </message>
</context>
<context>
    <name>ScenarioText</name>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="18"/>
        <source>groups %1</source>
        <translation>Gruppen %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="19"/>
        <source>G=default</source>
        <translation>G=Standard</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="20"/>
        <source>%1 by speed</source>
        <translation>%1 nach Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="21"/>
        <source>%1 round robin</source>
        <translation>%1 reihum</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="35"/>
        <source>note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="36"/>
        <source>switch to %1</source>
        <translation>Wechsel zu %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="37"/>
        <source>regroup: %1</source>
        <translation>neu gruppieren: %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="41"/>
        <source>worker %1 back to full speed</source>
        <translation>Worker %1 wieder mit voller Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="43"/>
        <source>×%1 compute time</source>
        <translation>×%1 Rechenzeit</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="44"/>
        <source>+%1 ms per iteration</source>
        <translation>+%1 ms pro Iteration</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="46"/>
        <source>×%1 with probability %2</source>
        <translation>×%1 mit Wahrscheinlichkeit %2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="47"/>
        <source>+%1 ms before each push</source>
        <translation>+%1 ms vor jedem Push</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="48"/>
        <source>slow worker %1: %2</source>
        <translation>Worker %1 verlangsamen: %2</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="50"/>
        <source>learning rate %1</source>
        <translation>Lernrate %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="51"/>
        <source>pause for %1 s</source>
        <translation>%1 s pausieren</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="51"/>
        <source>pause</source>
        <translation>pausieren</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="52"/>
        <source>resume</source>
        <translation>fortsetzen</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_text.cpp" line="53"/>
        <source>stop the run</source>
        <translation>Lauf anhalten</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/console_main.cpp" line="40"/>
        <source>Run &apos;syncscope --help&apos; for the flags.</source>
        <translation>Mit „syncscope --help“ werden die Optionen angezeigt.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="125"/>
        <source>SyncScope console: watch and steer distributed training</source>
        <translation>SyncScope-Konsole: verteiltes Training beobachten und steuern</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="129"/>
        <source>Attach to a coordinator&apos;s control endpoint (telemetry: port + 1).</source>
        <translation>An den Steuerungsendpunkt eines Koordinators anhängen (Telemetrie: Port + 1).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="131"/>
        <source>Start a local cluster with N workers.</source>
        <translation>Einen lokalen Cluster mit N Workern starten.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="134"/>
        <source>The syncscope-engine binary for local clusters.</source>
        <translation>Die syncscope-engine-Programmdatei für lokale Cluster.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="137"/>
        <source>Language of the console: de, zh_CN or en (default: the system locale).</source>
        <translation>Sprache der Konsole: de, zh_CN oder en (Standard: das Gebietsschema des Systems).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="141"/>
        <source>Save a PNG of the window to FILE after a while of running, stop a local cluster, and exit.</source>
        <translation>Nach einer Weile Laufzeit ein PNG des Fensters in DATEI speichern, einen lokalen Cluster anhalten und beenden.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="145"/>
        <source>Seconds of running before --screenshot grabs the window (default: 10).</source>
        <translation>Sekunden Laufzeit, bevor --screenshot das Fenster aufnimmt (Standard: 10).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="149"/>
        <source>Size of the window in pixels (default: %1, at most the screen&apos;s).</source>
        <translation>Größe des Fensters in Pixeln (Standard: %1, höchstens die des Bildschirms).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="152"/>
        <source>Open a run recording for replay and export.</source>
        <translation>Eine Laufaufzeichnung zum Abspielen und Exportieren öffnen.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="156"/>
        <source>Play a classroom scenario on a local cluster: a scenario file, or the name of a shipped one (straggler-bsp, bsp-vs-asp, grouping-rescue).</source>
        <translation>Ein Unterrichtsszenario auf einem lokalen Cluster abspielen: eine Szenariodatei oder der Name eines mitgelieferten Szenarios (straggler-bsp, bsp-vs-asp, grouping-rescue).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="161"/>
        <source>With --attach: a credentials file holding a steer or view key (default: %1).</source>
        <translation>Mit --attach: eine Zugangsdatei mit einem Steuer- oder Zuschauerschlüssel (Standard: %1).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="166"/>
        <source>With --attach: connect without authentication (a coordinator run with --insecure).</source>
        <translation>Mit --attach: ohne Authentifizierung verbinden (ein mit --insecure gestarteter Koordinator).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="169"/>
        <source>Compare run recordings on the same charts, in a window of their own (give it once per recording; File → Compare runs… adds more).</source>
        <translation>Laufaufzeichnungen in denselben Diagrammen vergleichen, in einem eigenen Fenster (einmal je Aufzeichnung angeben; Datei → Läufe vergleichen… fügt weitere hinzu).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="174"/>
        <source>Open an experiment&apos;s results (the --out folder of syncscope-engine experiment: its claims and figures) in a window of their own.</source>
        <translation>Die Ergebnisse eines Experiments (den --out-Ordner von syncscope-engine experiment: seine Aussagen und Abbildungen) in einem eigenen Fenster öffnen.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="177"/>
        <source>Open the window maximised.</source>
        <translation>Das Fenster maximiert öffnen.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="179"/>
        <source>Open the window full-screen (a projector: F11 leaves it).</source>
        <translation>Das Fenster im Vollbild öffnen (ein Projektor: F11 beendet es).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="182"/>
        <source>Start in the presentation view: large type, the fine controls hidden (F5 toggles it).</source>
        <translation>In der Präsentationsansicht starten: große Schrift, die feinen Regler ausgeblendet (F5 schaltet um).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="189"/>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>unerwartetes Argument „%1“</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="191"/>
        <source>give one of --attach, --local, --open and --scenario</source>
        <translation>bitte nur eine von --attach, --local, --open und --scenario angeben</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="219"/>
        <source>--local &apos;%1&apos; must be a number of workers from 1 to %2</source>
        <translation>--local &apos;%1&apos; muss eine Anzahl von Workern zwischen 1 und %2 sein</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="229"/>
        <source>--screenshot needs --local N, --scenario FILE, --attach tcp://HOST:PORT, --compare FILE or --results DIR</source>
        <translation>--screenshot braucht --local N, --scenario DATEI, --attach tcp://HOST:PORT, --compare DATEI oder --results ORDNER</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="198"/>
        <source>--attach &apos;%1&apos; is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)</source>
        <translation>--attach „%1“ ist nicht tcp://HOST:PORT (z. B. tcp://127.0.0.1:5556)</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="207"/>
        <source>--scenario &apos;%1&apos; is neither a file nor a shipped scenario (%2)</source>
        <translation>--scenario „%1“ ist weder eine Datei noch ein mitgeliefertes Szenario (%2)</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="224"/>
        <source>no syncscope-engine at &apos;%1&apos;; give its path with --engine PATH</source>
        <translation>keine syncscope-engine unter „%1“; ihren Pfad mit --engine PFAD angeben</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="234"/>
        <source>--screenshot-after &apos;%1&apos; must be a number of seconds from 0 to 86400</source>
        <translation>--screenshot-after „%1“ muss eine Anzahl von Sekunden zwischen 0 und 86400 sein</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="238"/>
        <source>--screenshot-after needs --screenshot FILE</source>
        <translation>--screenshot-after braucht --screenshot DATEI</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="242"/>
        <source>give one of --maximized and --fullscreen</source>
        <translation>nur eines von --maximized und --fullscreen angeben</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="248"/>
        <source>--window-size &apos;%1&apos; is not WIDTHxHEIGHT of at least %2 (e.g. 1280x720)</source>
        <translation>--window-size „%1“ ist nicht BREITExHÖHE von mindestens %2 (z. B. 1280x720)</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="291"/>
        <source>syncscope: saved the window to &apos;%1&apos;</source>
        <translation>syncscope: Fenster in „%1“ gespeichert</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="294"/>
        <source>could not save the screenshot to &apos;%1&apos; (is the folder there and writable?)</source>
        <translation>Bildschirmfoto konnte nicht in „%1“ gespeichert werden (existiert der Ordner und ist er beschreibbar?)</translation>
    </message>
</context>
<context>
    <name>syncscope::engine::ModeCatalog</name>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="59"/>
        <source>Staleness bound s</source>
        <translation>Staleness-Schranke s</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="60"/>
        <source>Clocks a worker may run ahead of the slowest (0 is BSP)</source>
        <translation>Takte, die ein Worker dem langsamsten voraus sein darf (0 entspricht BSP)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="62"/>
        <source>Learning rate for stale gradients</source>
        <translation>Lernrate für veraltete Gradienten</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="63"/>
        <source>none; inverse: lr/tau (Zhang et al.); dynsgd: lr/(tau+1)</source>
        <translation>keine; invers: lr/tau (Zhang et al.); DynSGD: lr/(tau+1)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="65"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="66"/>
        <source>inverse (lr/tau)</source>
        <translation>invers (lr/tau)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="67"/>
        <source>dynsgd (lr/(tau+1))</source>
        <translation>DynSGD (lr/(tau+1))</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="68"/>
        <source>Groups G</source>
        <translation>Gruppen G</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="68"/>
        <source>Number of worker groups</source>
        <translation>Anzahl der Worker-Gruppen</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="70"/>
        <source>Group by</source>
        <translation>Gruppieren nach</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="70"/>
        <source>How workers are put into groups</source>
        <translation>Wie Worker in Gruppen eingeteilt werden</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="72"/>
        <source>round robin</source>
        <translation>reihum</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="73"/>
        <source>speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="74"/>
        <source>explicit assignment</source>
        <translation>ausdrückliche Zuordnung</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="75"/>
        <source>Inside a group</source>
        <translation>Innerhalb einer Gruppe</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="76"/>
        <source>Synchronisation inside a group</source>
        <translation>Synchronisation innerhalb einer Gruppe</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="77"/>
        <source>BSP</source>
        <translation>BSP</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="77"/>
        <source>SSP (bound s)</source>
        <translation>SSP (Schranke s)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="78"/>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="78"/>
        <source>ksync: gradients per version; kasync: gradients per update</source>
        <translation>ksync: Gradienten pro Version; kasync: Gradienten pro Update</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="80"/>
        <source>Barrier</source>
        <translation>Barriere</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="81"/>
        <source>enforced: BSP; slack: SSP with bound s</source>
        <translation>erzwungen: BSP; locker: SSP mit Schranke s</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="82"/>
        <source>enforced (BSP)</source>
        <translation>erzwungen (BSP)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="82"/>
        <source>slack (SSP)</source>
        <translation>locker (SSP)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="83"/>
        <source>A late worker&apos;s batch</source>
        <translation>Batch eines verspäteten Workers</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="84"/>
        <source>hand-off: the workers already waiting compute it (Falcon); wait: the round waits for the late worker</source>
        <translation>Übergabe: die bereits wartenden Worker berechnen ihn (Falcon); warten: die Runde wartet auf den verspäteten Worker</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="86"/>
        <source>handed to waiting workers</source>
        <translation>an wartende Worker übergeben</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="86"/>
        <source>waited for</source>
        <translation>abgewartet</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="87"/>
        <source>Rebalance every</source>
        <translation>Neu ausbalancieren alle</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="88"/>
        <source>Seconds between batch-size rebalancing</source>
        <translation>Sekunden zwischen Neuverteilungen der Batchgrößen</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="89"/>
        <source>Decide every</source>
        <translation>Entscheiden alle</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="90"/>
        <source>Seconds between the controller&apos;s decisions</source>
        <translation>Sekunden zwischen den Entscheidungen des Reglers</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="91"/>
        <source>Controller</source>
        <translation>Regler</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="92"/>
        <source>decide: switch by itself; advise: propose, a person takes or dismisses</source>
        <translation>entscheiden: wechselt selbst; beraten: schlägt vor, ein Mensch übernimmt oder verwirft</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="93"/>
        <source>decides</source>
        <translation>entscheidet</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="93"/>
        <source>advises</source>
        <translation>berät</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="107"/>
        <source>BSP (bulk synchronous)</source>
        <translation>BSP (Bulk-synchron)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="108"/>
        <source>Wait for every worker, average their gradients, apply once. No staleness, but the slowest worker sets the pace.</source>
        <translation>Auf jeden Worker warten, ihre Gradienten mitteln, einmal anwenden. Keine Staleness, aber der langsamste Worker bestimmt das Tempo.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="111"/>
        <source>ASP (asynchronous)</source>
        <translation>ASP (asynchron)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="112"/>
        <source>Apply each gradient as it arrives. Nobody waits, but gradients can be stale.</source>
        <translation>Jeden Gradienten bei Ankunft anwenden. Niemand wartet, aber Gradienten können veraltet sein.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="113"/>
        <source>SSP (stale synchronous)</source>
        <translation>SSP (Stale-synchron)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="114"/>
        <source>Apply on arrival; a worker more than s clocks ahead of the slowest waits. s = 0 is BSP.</source>
        <translation>Bei Ankunft anwenden; ein Worker, der mehr als s Takte vor dem langsamsten liegt, wartet. s = 0 entspricht BSP.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="116"/>
        <source>Grouped (hybrid)</source>
        <translation>Gruppiert (hybrid)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="117"/>
        <source>G groups: BSP (or SSP) inside a group, groups update the model asynchronously. G = 1 is BSP, G = N is ASP.</source>
        <translation>G Gruppen: BSP (oder SSP) innerhalb einer Gruppe, die Gruppen aktualisieren das Modell asynchron. G = 1 entspricht BSP, G = N entspricht ASP.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="121"/>
        <source>K-sync (backup workers)</source>
        <translation>K-sync (Backup-Worker)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="122"/>
        <source>Average the first K gradients of each version; late ones are dropped and counted. K = N is BSP.</source>
        <translation>Die ersten K Gradienten jeder Version mitteln; verspätete werden verworfen und gezählt. K = N entspricht BSP.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="123"/>
        <source>N-1 (N below 4 workers)</source>
        <translation>N-1 (N bei unter 4 Workern)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="124"/>
        <source>K-async (n-softsync)</source>
        <translation>K-async (n-softsync)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="125"/>
        <source>Update after every K gradients from anyone, stale ones included. K = 1 is ASP.</source>
        <translation>Nach jeweils K Gradienten von beliebigen Workern aktualisieren, veraltete eingeschlossen. K = 1 entspricht ASP.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="126"/>
        <source>N/2</source>
        <translation>N/2</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="127"/>
        <source>Elastic batch</source>
        <translation>Elastischer Batch</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="128"/>
        <source>Each worker&apos;s batch is sized in proportion to its speed so all arrive together; enforced (BSP) or slack (SSP) barrier.</source>
        <translation>Die Batchgröße jedes Workers richtet sich nach seiner Geschwindigkeit, damit alle gleichzeitig ankommen; erzwungene (BSP) oder lockere (SSP) Barriere.</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="132"/>
        <source>Auto (adaptive)</source>
        <translation>Auto (adaptiv)</translation>
    </message>
    <message>
        <location filename="../engine/plan/mode_catalog.cpp" line="133"/>
        <source>A controller measures the workers&apos; speeds and picks mode and grouping; each decision appears as a marker with its reason. As an advisor it proposes and you decide.</source>
        <translation>Ein Regler misst die Geschwindigkeit der Worker und wählt Modus und Gruppierung; jede Entscheidung erscheint als Markierung mit ihrer Begründung. Als Berater schlägt er vor, und Sie entscheiden.</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::AdvisorBar</name>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="23"/>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="24"/>
        <source>Dismiss</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="35"/>
        <source>Keep the current mode; the advisor proposes again if the run changes</source>
        <translation>Den aktuellen Modus behalten; der Berater schlägt erneut vor, wenn sich der Lauf ändert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="65"/>
        <source>Advisor: switch from %1 to %2.</source>
        <translation>Berater: von %1 zu %2 wechseln.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="68"/>
        <source>Worker %1 takes %2 ms per iteration, the median worker %3 ms.</source>
        <translation>Worker %1 braucht %2 ms pro Iteration, der Median-Worker %3 ms.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="71"/>
        <source>Predicted: %1 samples/s at staleness %2</source>
        <translation>Vorhersage: %1 Samples/s bei Staleness %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="74"/>
        <source>(now %1 samples/s at %2).</source>
        <translation>(jetzt %1 Samples/s bei %2).</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="101"/>
        <source>This console may only watch (view role)</source>
        <translation>Diese Konsole darf nur zusehen (Rolle view)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/advisor_bar.cpp" line="110"/>
        <source>Switch to the proposed mode now (a change like any other: it can be rolled back)</source>
        <translation>Jetzt zum vorgeschlagenen Modus wechseln (eine Änderung wie jede andere: sie lässt sich zurücknehmen)</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ChartsPanel</name>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="141"/>
        <source>Samples/s per worker</source>
        <translation>Samples/s pro Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <source>samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="28"/>
        <source>Staleness (mean per worker)</source>
        <translation>Staleness (Mittel pro Worker)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="28"/>
        <source>versions behind</source>
        <translation>Versionen zurück</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="29"/>
        <source>Training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="29"/>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="30"/>
        <source>Test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="30"/>
        <source>accuracy (%)</source>
        <translation>Genauigkeit (%)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="42"/>
        <source>All workers</source>
        <translation>Alle Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="141"/>
        <source>Samples/s: the slowest workers</source>
        <translation>Samples/s: die langsamsten Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="162"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="163"/>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="145"/>
        <source>training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="146"/>
        <source>test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/charts_panel.cpp" line="167"/>
        <source>mean of %n workers</source>
        <translation>
            <numerusform>Mittel über %n Worker</numerusform>
            <numerusform>Mittel über %n Worker</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="169"/>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="171"/>
        <source>if %1</source>
        <translation>wenn %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="216"/>
        <source>Worker %1</source>
        <translation>Worker %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::CompareWindow</name>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="41"/>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="54"/>
        <source>start of training</source>
        <translation>Trainingsbeginn</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="55"/>
        <source>first mode change</source>
        <translation>erster Moduswechsel</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="56"/>
        <source>first regrouping</source>
        <translation>erste Umgruppierung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="57"/>
        <source>first learning-rate change</source>
        <translation>erste Änderung der Lernrate</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="58"/>
        <source>first slowdown</source>
        <translation>erste Verlangsamung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="59"/>
        <source>first rollback</source>
        <translation>erstes Rollback</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="60"/>
        <source>first worker lost</source>
        <translation>erster Worker-Ausfall</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="61"/>
        <source>first resume</source>
        <translation>erste Wiederaufnahme</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="71"/>
        <source>Test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="71"/>
        <source>accuracy (%)</source>
        <translation>Genauigkeit (%)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="72"/>
        <source>Training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="72"/>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="73"/>
        <source>Updates per second</source>
        <translation>Updates pro Sekunde</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="73"/>
        <source>updates/s</source>
        <translation>Updates/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="74"/>
        <source>Compare runs</source>
        <translation>Läufe vergleichen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="76"/>
        <source>Add recordings…</source>
        <translation>Aufzeichnungen hinzufügen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="77"/>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="85"/>
        <source>Align on:</source>
        <translation>Ausrichten an:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="87"/>
        <source>Target accuracy:</source>
        <translation>Zielgenauigkeit:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Aligned at</source>
        <translation>Ausgerichtet bei</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Time to target (s)</source>
        <translation>Zeit bis zum Ziel (s)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="104"/>
        <source>Final accuracy</source>
        <translation>Endgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Staleness mean</source>
        <translation>Staleness (Mittel)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Staleness p99</source>
        <translation>Staleness p99</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="105"/>
        <source>Dropped</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="122"/>
        <source>Add two or more recordings (File → Record, or a run&apos;s --record file) to compare them.</source>
        <translation>Zwei oder mehr Aufzeichnungen hinzufügen (Datei → Aufzeichnen, oder die --record-Datei eines Laufs), um sie zu vergleichen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="149"/>
        <source>Reading recordings: %1…</source>
        <translation>Aufzeichnungen werden gelesen: %1…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="170"/>
        <source>Could not read: %1</source>
        <translation>Nicht lesbar: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="173"/>
        <source>Runs compared: %1</source>
        <translation>Verglichene Läufe: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="225"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="225"/>
        <source>no such event: from the start</source>
        <translation>kein solches Ereignis: ab dem Start</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="226"/>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="227"/>
        <source>%1%</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="227"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="244"/>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="251"/>
        <source>Recordings to compare</source>
        <translation>Zu vergleichende Aufzeichnungen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="252"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope-Aufzeichnungen (*.ssrec);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="257"/>
        <source>Export the comparison</source>
        <translation>Den Vergleich exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="258"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/compare_window.cpp" line="261"/>
        <source>Wrote %1</source>
        <translation>%1 geschrieben</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ConnectDialog</name>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="27"/>
        <source>Connect to a run</source>
        <translation>Mit einem Lauf verbinden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="29"/>
        <source>Start a local cluster</source>
        <translation>Einen lokalen Cluster starten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="30"/>
        <source>Attach to a running coordinator</source>
        <translation>An einen laufenden Koordinator anhängen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="57"/>
        <source>A credentials file with a steer key (to steer) or a view key (to watch), from syncscope-engine keygen</source>
        <translation>Eine Zugangsdatei mit einem Steuerschlüssel (zum Steuern) oder Zuschauerschlüssel (zum Zusehen), erstellt mit syncscope-engine keygen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="59"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="61"/>
        <source>Credentials file</source>
        <translation>Zugangsdatei</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="67"/>
        <source>No authentication (a coordinator run with --insecure)</source>
        <translation>Keine Authentifizierung (ein mit --insecure gestarteter Koordinator)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="69"/>
        <source>Control endpoint</source>
        <translation>Steuerungsendpunkt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="70"/>
        <source>Telemetry endpoint</source>
        <translation>Telemetrie-Endpunkt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="71"/>
        <source>Credentials</source>
        <translation>Zugangsdaten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="88"/>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="89"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="90"/>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="92"/>
        <source>Stop</source>
        <translation>Ende</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="98"/>
        <source>when I stop it</source>
        <translation>wenn ich ihn anhalte</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="99"/>
        <source>after epochs</source>
        <translation>nach Epochen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="100"/>
        <source>after seconds of training</source>
        <translation>nach Sekunden Training</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="101"/>
        <source>at test accuracy (%)</source>
        <translation>bei Testgenauigkeit (%)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="102"/>
        <source>A run that goes on until you press Stop leaves time to steer it</source>
        <translation>Ein Lauf, der bis zum Drücken von Stopp weitergeht, lässt Zeit, ihn zu steuern</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::EventLabels</name>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="24"/>
        <source>advice %1: %2</source>
        <translation>Vorschlag %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="26"/>
        <source>advice %1 taken: %2</source>
        <translation>Vorschlag %1 übernommen: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="27"/>
        <source>advice %1 dismissed</source>
        <translation>Vorschlag %1 verworfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="30"/>
        <source>auto: %1</source>
        <translation>auto: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="31"/>
        <source>auto stays %1</source>
        <translation>auto bleibt bei %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="42"/>
        <source>training started</source>
        <translation>Training gestartet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="43"/>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="44"/>
        <source>resumed</source>
        <translation>fortgesetzt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="45"/>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="46"/>
        <source>mode %1</source>
        <translation>Modus %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="47"/>
        <source>regrouped</source>
        <translation>neu gruppiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="48"/>
        <source>auto mode</source>
        <translation>Auto-Modus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="49"/>
        <source>batch sizes</source>
        <translation>Batchgrößen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="50"/>
        <source>worker %1 slowdown</source>
        <translation>Worker %1 verlangsamt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="51"/>
        <source>learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="52"/>
        <source>worker %1 joined</source>
        <translation>Worker %1 beigetreten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="53"/>
        <source>worker %1 lost</source>
        <translation>Worker %1 verloren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="54"/>
        <source>worker %1 rejoined</source>
        <translation>Worker %1 wieder beigetreten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="55"/>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="56"/>
        <source>evaluation</source>
        <translation>Auswertung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="57"/>
        <source>advice</source>
        <translation>Vorschlag</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="58"/>
        <source>advice answered</source>
        <translation>Vorschlag beantwortet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="59"/>
        <source>resumed from a checkpoint</source>
        <translation>vom Checkpoint fortgesetzt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="60"/>
        <source>rollback</source>
        <translation>Rollback</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="61"/>
        <source>checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="62"/>
        <source>recording</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="63"/>
        <source>parameter shard</source>
        <translation>Parameter-Shard</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="64"/>
        <source>hand-off</source>
        <translation>Übergabe</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="65"/>
        <source>event</source>
        <translation>Ereignis</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="73"/>
        <source>%n workers joined</source>
        <translation>
            <numerusform>%n Worker beigetreten</numerusform>
            <numerusform>%n Worker beigetreten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="74"/>
        <source>%n workers lost</source>
        <translation>
            <numerusform>%n Worker verloren</numerusform>
            <numerusform>%n Worker verloren</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="75"/>
        <source>%n workers rejoined</source>
        <translation>
            <numerusform>%n Worker wieder beigetreten</numerusform>
            <numerusform>%n Worker wieder beigetreten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/widgets/event_labels.cpp" line="76"/>
        <source>%n slowdowns</source>
        <translation>
            <numerusform>%n Verlangsamung</numerusform>
            <numerusform>%n Verlangsamungen</numerusform>
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
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/event_labels.cpp" line="91"/>
        <source>%1 s, version %2: %3</source>
        <translation>%1 s, Version %2: %3</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::LocalClusterProcess</name>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="26"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>Ein lokaler Cluster läuft bereits; zuerst anhalten.</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="31"/>
        <source>The console starts a coordinator and its workers on this machine; start a cluster with shards, aggregators or other hosts with syncscope-engine run or launch, and attach to it.</source>
        <translation>Die Konsole startet einen Koordinator und seine Worker auf diesem Rechner; starten Sie einen Cluster mit Shards, Aggregatoren oder anderen Hosts mit syncscope-engine run oder launch und verbinden Sie sich damit.</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="40"/>
        <source>Cannot make the local cluster&apos;s credentials: %1</source>
        <translation>Die Zugangsdaten des lokalen Clusters können nicht erstellt werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="48"/>
        <source>Cannot make the local cluster&apos;s checkpoint folder: %1</source>
        <translation>Der Checkpoint-Ordner des lokalen Clusters lässt sich nicht anlegen: %1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="55"/>
        <source>Cannot start a local cluster: %1</source>
        <translation>Lokaler Cluster kann nicht gestartet werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="67"/>
        <source>The coordinator exited before it was ready (its error is in the terminal)</source>
        <translation>Der Koordinator hat sich beendet, bevor er bereit war (sein Fehler steht im Terminal)</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="76"/>
        <source>Cannot start the workers: %1</source>
        <translation>Die Worker lassen sich nicht starten: %1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="85"/>
        <source>Final test accuracy %1% at model version %2</source>
        <translation>Endgültige Testgenauigkeit %1% bei Modellversion %2</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="89"/>
        <source>The run could not go on: %1</source>
        <translation>Der Lauf konnte nicht weitergehen: %1</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="127"/>
        <source>The local cluster keeps running; attach again with --credentials %1</source>
        <translation>Der lokale Cluster läuft weiter; mit --credentials %1 wieder verbinden</translation>
    </message>
    <message>
        <location filename="../ui/net/local_cluster_process.cpp" line="130"/>
        <source>Its checkpoints stay in %1</source>
        <translation>Seine Checkpoints bleiben in %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::LogPanel</name>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="20"/>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="25"/>
        <location filename="../ui/widgets/log_panel.cpp" line="57"/>
        <source>Show the whole log</source>
        <translation>Das ganze Protokoll zeigen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/log_panel.cpp" line="57"/>
        <source>Show only the newest line</source>
        <translation>Nur die neueste Zeile zeigen</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::MainWindow</name>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="67"/>
        <source>waiting for workers</source>
        <translation>wartet auf Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="68"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="69"/>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="70"/>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="71"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="78"/>
        <source>SyncScope</source>
        <translation>SyncScope</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="88"/>
        <source>Taking advice %1</source>
        <translation>Vorschlag %1 wird übernommen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="88"/>
        <source>Dismissing advice %1</source>
        <translation>Vorschlag %1 wird verworfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="106"/>
        <source>Scenario at %1 s: %2</source>
        <translation>Szenario bei %1 s: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="111"/>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="114"/>
        <source>Scenario over: %1</source>
        <translation>Szenario beendet: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="120"/>
        <location filename="../ui/widgets/main_window.cpp" line="222"/>
        <source>Not attached</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="121"/>
        <source>Detached: %1</source>
        <translation>Getrennt: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="124"/>
        <source>Connection lost: %1</source>
        <translation>Verbindung verloren: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="135"/>
        <source>Steering</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="140"/>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="149"/>
        <source>Scenario</source>
        <translation>Szenario</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="158"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="159"/>
        <source>&amp;Attach…</source>
        <translation>&amp;Anhängen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="160"/>
        <source>Start &amp;local cluster…</source>
        <translation>&amp;Lokalen Cluster starten…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="161"/>
        <source>&amp;Detach</source>
        <translation>&amp;Trennen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="165"/>
        <source>&amp;Compare runs…</source>
        <translation>Läufe &amp;vergleichen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="166"/>
        <source>Open experiment &amp;results…</source>
        <translation>Experimenter&amp;gebnisse öffnen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="170"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="171"/>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="174"/>
        <source>Roll &amp;back a change…</source>
        <translation>Änderung &amp;zurücknehmen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="178"/>
        <source>Restore the model, optimiser and mode from the checkpoint taken before a change</source>
        <translation>Modell, Optimierer und Modus aus dem Checkpoint vor einer Änderung wiederherstellen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="179"/>
        <source>&amp;Scenarios</source>
        <translation>&amp;Szenarien</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="182"/>
        <source>Stop &amp;following the scenario</source>
        <translation>Szenario nicht mehr &amp;folgen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="187"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="188"/>
        <source>&amp;Wall-clock time axis</source>
        <translation>&amp;Uhrzeit-Zeitachse</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="191"/>
        <source>W&amp;hat-if curves</source>
        <translation>Was-wäre-wenn-&amp;Kurven</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="200"/>
        <source>&amp;Log-scale loss</source>
        <translation>&amp;Logarithmischer Verlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="204"/>
        <source>&amp;Full screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="208"/>
        <source>&amp;Presentation view</source>
        <translation>&amp;Präsentationsansicht</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="210"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="211"/>
        <source>Large type for a projector; hides the fine controls and the log</source>
        <translation>Große Schrift für einen Projektor; blendet die feinen Steuerelemente und das Protokoll aus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="255"/>
        <source>Cannot attach: give both endpoints as tcp://HOST:PORT.</source>
        <translation>Anhängen nicht möglich: beide Endpunkte als tcp://HOST:PORT angeben.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="260"/>
        <source>Attaching to %1…</source>
        <translation>Hänge an %1 an…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="280"/>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="283"/>
        <source>Opening %1 cancelled.</source>
        <translation>Öffnen von %1 abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="296"/>
        <source>Replay: %1</source>
        <translation>Wiedergabe: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="297"/>
        <source>Opened recording %1 (%2 s)</source>
        <translation>Aufzeichnung %1 geöffnet (%2 s)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="301"/>
        <source>Exported the charts to %1</source>
        <translation>Diagramme nach %1 exportiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="319"/>
        <source>State: %1</source>
        <translation>Zustand: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="320"/>
        <source>Mode: %1</source>
        <translation>Modus: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="321"/>
        <source>Version %1</source>
        <translation>Version %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="322"/>
        <source>Accuracy: –</source>
        <translation>Genauigkeit: –</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="323"/>
        <source>Accuracy: %1%</source>
        <translation>Genauigkeit: %1 %</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="333"/>
        <source>Runs until you stop it: Run → Stop (%1)</source>
        <translation>Läuft, bis Sie ihn anhalten: Lauf → Stopp (%1)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="335"/>
        <source>%1 epochs</source>
        <translation>%1 Epochen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="336"/>
        <source>%1 s of training</source>
        <translation>%1 s Training</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="337"/>
        <source>%1% test accuracy</source>
        <translation>%1 % Testgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="338"/>
        <source>Stops at %1, or with Run → Stop (%2)</source>
        <translation>Endet bei %1 oder mit Lauf → Stopp (%2)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="338"/>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="344"/>
        <source>UNAUTHENTICATED: anyone on this machine may steer (--insecure)</source>
        <translation>NICHT AUTHENTIFIZIERT: jeder auf diesem Rechner kann steuern (--insecure)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="345"/>
        <source>View only</source>
        <translation>Nur zusehen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="355"/>
        <source>[%1 s] %2</source>
        <translation>[%1 s] %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="356"/>
        <source> (change %1)</source>
        <translation> (Änderung %1)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="378"/>
        <source>Rolling back to before change %1</source>
        <translation>Zurück zum Stand vor Änderung %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="399"/>
        <source>Command %1 refused: %2</source>
        <translation>Befehl %1 abgelehnt: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="408"/>
        <source>Command %1 done: %2</source>
        <translation>Befehl %1 ausgeführt: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="408"/>
        <source>no event</source>
        <translation>kein Ereignis</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="415"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>Ein lokaler Cluster läuft bereits; zuerst anhalten.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="419"/>
        <source>Cannot start a local cluster: %1</source>
        <translation>Lokaler Cluster kann nicht gestartet werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="426"/>
        <source>Starting a local cluster: %1 workers, %2, %3%4</source>
        <translation>Lokaler Cluster startet: %1 Worker, %2, %3%4</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="442"/>
        <source>The local cluster has stopped.</source>
        <translation>Der lokale Cluster ist angehalten.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="451"/>
        <source>Stopping the local cluster…</source>
        <translation>Der lokale Cluster wird angehalten…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="478"/>
        <location filename="../ui/widgets/main_window.cpp" line="510"/>
        <source>Stop the local cluster?</source>
        <translation>Den lokalen Cluster anhalten?</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="479"/>
        <source>This window started a local cluster. Stop its coordinator and workers?</source>
        <translation>Dieses Fenster hat einen lokalen Cluster gestartet. Seinen Koordinator und seine Worker anhalten?</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="500"/>
        <source>Cannot run the scenario: %1</source>
        <translation>Das Szenario kann nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="511"/>
        <source>A local cluster is running. Stop it and start the scenario &quot;%1&quot;?</source>
        <translation>Ein lokaler Cluster läuft. Ihn anhalten und das Szenario „%1“ starten?</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="521"/>
        <source>Scenario: %1 (%2)</source>
        <translation>Szenario: %1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="531"/>
        <source>Scenario %1 s · next: %2</source>
        <translation>Szenario %1 s · als Nächstes: %2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ModeEditor</name>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="27"/>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="91"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/mode_editor.cpp" line="170"/>
        <source>default: %1</source>
        <translation>Standard: %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::NetworkWorker</name>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="28"/>
        <source>attached to %1: %2, %3 workers, %4; %5 ticks and %6 events of history</source>
        <translation>an %1 angehängt: %2, %3 Worker, %4; %5 Messpunkte und %6 Ereignisse Verlauf</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="44"/>
        <source>re-attaching to %1</source>
        <translation>hänge erneut an %1 an</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="51"/>
        <source>%1 holds no steer or view keys; ask for a console&apos;s file (syncscope-engine keygen --role steer or view)</source>
        <translation>%1 enthält keine Steuer- oder Zuschauerschlüssel; bitten Sie um die Datei einer Konsole (syncscope-engine keygen --role steer oder view)</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="72"/>
        <source>cannot connect to %1 and %2: %3 (expected endpoints like tcp://HOST:PORT)</source>
        <translation>keine Verbindung zu %1 und %2: %3 (erwartet werden Endpunkte wie tcp://HOST:PORT)</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="85"/>
        <source>detached from %1</source>
        <translation>von %1 getrennt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="91"/>
        <source>the console built an unreadable request</source>
        <translation>die Konsole hat eine unlesbare Anfrage erzeugt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="95"/>
        <source>not attached to a coordinator</source>
        <translation>nicht an einen Koordinator angehängt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="101"/>
        <source>could not send to %1: %2</source>
        <translation>konnte nicht an %1 senden: %2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="106"/>
        <source>the console is closing</source>
        <translation>die Konsole wird geschlossen</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="122"/>
        <source>network error on %1: %2</source>
        <translation>Netzwerkfehler bei %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="164"/>
        <source>no telemetry from %1 within 5 s: is a coordinator running there?</source>
        <translation>keine Telemetrie von %1 innerhalb von 5 s: läuft dort ein Koordinator?</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="168"/>
        <source>no snapshot reply from %1 within 5 s: is it the control endpoint of the coordinator at %2?</source>
        <translation>keine Snapshot-Antwort von %1 innerhalb von 5 s: ist das der Steuerungsendpunkt des Koordinators unter %2?</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="174"/>
        <source>no telemetry from %1 for 3 s: the coordinator stopped or the network is down; waiting for it to come back</source>
        <translation>seit 3 s keine Telemetrie von %1: der Koordinator wurde angehalten oder das Netzwerk ist ausgefallen; warte, bis er zurückkommt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="182"/>
        <source>no reply from %1 within 5 s</source>
        <translation>keine Antwort von %1 innerhalb von 5 s</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="219"/>
        <source>the coordinator at %1 refused the snapshot request: %2</source>
        <translation>der Koordinator unter %1 hat die Snapshot-Anfrage abgelehnt: %2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::RecordingTask</name>
    <message>
        <location filename="../ui/widgets/recording_task.cpp" line="16"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
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
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="33"/>
        <location filename="../ui/widgets/replay_bar.cpp" line="118"/>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="34"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="39"/>
        <source>Replay position: drag to seek</source>
        <translation>Wiedergabeposition: zum Springen ziehen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="41"/>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="43"/>
        <source>Playback speed</source>
        <translation>Wiedergabegeschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="56"/>
        <source>&amp;Open recording…</source>
        <translation>Aufzeichnung ö&amp;ffnen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="57"/>
        <source>Open recording</source>
        <translation>Aufzeichnung öffnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="58"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope-Aufzeichnungen (*.ssrec);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="61"/>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="63"/>
        <source>&amp;CSV…</source>
        <translation>&amp;CSV…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>Export CSV</source>
        <translation>CSV exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="66"/>
        <source>&amp;JSON Lines…</source>
        <translation>&amp;JSON Lines…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="67"/>
        <source>Export JSON Lines</source>
        <translation>JSON Lines exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="67"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="69"/>
        <source>&amp;Trace (Chrome, Perfetto)…</source>
        <translation>&amp;Trace (Chrome, Perfetto)…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="70"/>
        <source>Export trace</source>
        <translation>Trace exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="70"/>
        <source>Chrome trace JSON (*.json)</source>
        <translation>Chrome-Trace-JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="72"/>
        <source>Tensor&amp;Board event files…</source>
        <translation>Tensor&amp;Board-Ereignisdateien…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="84"/>
        <source>Export TensorBoard event files into</source>
        <translation>TensorBoard-Ereignisdateien exportieren nach</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="93"/>
        <source>Exporting %1…</source>
        <translation>%1 wird exportiert…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="95"/>
        <source>Exported the recording to %1</source>
        <translation>Aufzeichnung nach %1 exportiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="103"/>
        <source>Exports an open recording: record a live run with --record, then open it.</source>
        <translation>Exportiert eine geöffnete Aufzeichnung: einen laufenden Lauf mit --record aufzeichnen und dann öffnen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="114"/>
        <source>%1 s / %2 s</source>
        <translation>%1 s / %2 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="118"/>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ReplayController</name>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="25"/>
        <source>Cannot open recording %1: %2</source>
        <translation>Aufzeichnung %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="41"/>
        <source>The recording %1 holds no telemetry ticks: nothing to replay.</source>
        <translation>Die Aufzeichnung %1 enthält keine Telemetrie-Messpunkte: nichts wiederzugeben.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="48"/>
        <source>Recording %1 opened with a warning: %2</source>
        <translation>Aufzeichnung %1 mit einer Warnung geöffnet: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="120"/>
        <source>No recording is open: open one with File → Open recording… first.</source>
        <translation>Keine Aufzeichnung geöffnet: zuerst eine mit Datei → Aufzeichnung öffnen… öffnen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="122"/>
        <source>Cannot export to %1: the name must end in .csv, .jsonl or .json (a trace).</source>
        <translation>Export nach %1 nicht möglich: der Name muss auf .csv, .jsonl oder .json (ein Trace) enden.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="135"/>
        <source>Export to %1 cancelled.</source>
        <translation>Export nach %1 abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="136"/>
        <source>Export to %1 failed: %2</source>
        <translation>Export nach %1 fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ResultsWindow</name>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="71"/>
        <source>Experiment results</source>
        <translation>Experimentergebnisse</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="73"/>
        <source>Open folder…</source>
        <translation>Ordner öffnen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="74"/>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="76"/>
        <source>Read the folder again (an experiment still running adds runs and, at its end, the claims)</source>
        <translation>Den Ordner neu lesen (ein laufendes Experiment fügt Läufe hinzu und am Ende die Aussagen)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="84"/>
        <source>Claim or figure</source>
        <translation>Aussage oder Abbildung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="84"/>
        <source>Verdict</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="133"/>
        <source>Open the folder an experiment wrote (syncscope-engine experiment --out DIR).</source>
        <translation>Den Ordner öffnen, den ein Experiment geschrieben hat (syncscope-engine experiment --out ORDNER).</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="139"/>
        <source>Open an experiment folder</source>
        <translation>Experimentordner öffnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="150"/>
        <source>Nothing to show: %1</source>
        <translation>Nichts anzuzeigen: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="172"/>
        <source>Claims: %1 (quick)</source>
        <translation>Aussagen: %1 (schnell)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="173"/>
        <source>Claims: %1</source>
        <translation>Aussagen: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="186"/>
        <source>Figures</source>
        <translation>Abbildungen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="186"/>
        <source>Part: %1</source>
        <translation>Teil: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="221"/>
        <source>The paper:</source>
        <translation>Das Paper:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="222"/>
        <source>Ours:</source>
        <translation>Unsere:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="222"/>
        <source>parts %1</source>
        <translation>Teile %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="224"/>
        <source>Run with:</source>
        <translation>Ausgeführt mit:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="225"/>
        <location filename="../ui/widgets/results_window.cpp" line="238"/>
        <source>Not read:</source>
        <translation>Nicht gelesen:</translation>
    </message>
    <message>
        <location filename="../ui/widgets/results_window.cpp" line="237"/>
        <source>From</source>
        <translation>Aus</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::RollbackPicker</name>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="17"/>
        <source>change %1 at %2 s: %3</source>
        <translation>Änderung %1 bei %2 s: %3</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="28"/>
        <location filename="../ui/widgets/rollback_picker.cpp" line="36"/>
        <source>Roll back</source>
        <translation>Zurücknehmen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="29"/>
        <source>This run has made no change yet that can be rolled back.</source>
        <translation>Dieser Lauf hat noch keine Änderung gemacht, die sich zurücknehmen ließe.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/rollback_picker.cpp" line="37"/>
        <source>Restore the model, optimiser and mode from before this change (later updates are undone):</source>
        <translation>Modell, Optimierer und Modus von vor dieser Änderung wiederherstellen (spätere Updates werden verworfen):</translation>
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
        <translation>Trainingszeit %1 s</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="72"/>
        <source>Next: %1</source>
        <translation>Als Nächstes: %1</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_banner.cpp" line="79"/>
        <source>skipped: the run ended first</source>
        <translation>übersprungen: der Lauf war vorher zu Ende</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ScenarioRunner</name>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="40"/>
        <source>No scenario</source>
        <translation>Kein Szenario</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="42"/>
        <source>No more steps</source>
        <translation>Keine weiteren Schritte</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="42"/>
        <source>Scenario over</source>
        <translation>Szenario beendet</translation>
    </message>
    <message>
        <location filename="../ui/scenario/scenario_runner.cpp" line="44"/>
        <source>at %1 s: %2</source>
        <translation>bei %1 s: %2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::StalenessHistogram</name>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="19"/>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="35"/>
        <source>gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="21"/>
        <source>Staleness histogram</source>
        <translation>Staleness-Histogramm</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="32"/>
        <source>staleness τ</source>
        <translation>Staleness τ</translation>
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
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="74"/>
        <source>Start</source>
        <translation>Start</translation>
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
        <translation>Pause</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="77"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="78"/>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="79"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="94"/>
        <source>Synchronisation</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="105"/>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="107"/>
        <source>Send the selected mode and its parameters to the engine</source>
        <translation>Den gewählten Modus und seine Parameter an die Engine senden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="110"/>
        <source>Groups G</source>
        <translation>Gruppen G</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="103"/>
        <source>The mode the engine is running now</source>
        <translation>Der Modus, in dem die Engine gerade läuft</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="106"/>
        <source>Apply mode</source>
        <translation>Modus anwenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="116"/>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="122"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="135"/>
        <source>by count</source>
        <translation>nach Anzahl</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="136"/>
        <source>by speed</source>
        <translation>nach Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="137"/>
        <source>By count: workers dealt round robin. By speed: workers of similar measured speed together.</source>
        <translation>Nach Anzahl: Worker werden reihum verteilt. Nach Geschwindigkeit: Worker mit ähnlicher gemessener Geschwindigkeit kommen zusammen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="160"/>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="219"/>
        <source>Slowdown of worker %1: compute time x factor (1-10)</source>
        <translation>Verlangsamung von Worker %1: Rechenzeit × Faktor (1–10)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="278"/>
        <source>Number of groups G; releasing the slider regroups a grouped run</source>
        <translation>Anzahl der Gruppen G; Loslassen des Schiebereglers gruppiert einen gruppierten Lauf neu</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="279"/>
        <source>Groups apply to the grouped mode only</source>
        <translation>Gruppen gelten nur im gruppierten Modus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="346"/>
        <source>This console holds a view key: it may watch the run, not steer it</source>
        <translation>Diese Konsole hat einen Zuschauerschlüssel: Sie kann den Lauf beobachten, aber nicht steuern</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="369"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::TimeChart</name>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="45"/>
        <source>Drag: zoom · Wheel: zoom · Shift+drag or middle drag, ←/→: pan · Double-click: follow the run</source>
        <translation>Ziehen: Zoom · Mausrad: Zoom · Umschalt+Ziehen oder mittlere Taste, ←/→: verschieben · Doppelklick: dem Lauf folgen</translation>
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
        <translation>Rechnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="22"/>
        <source>communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="23"/>
        <source>waiting</source>
        <translation>Warten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="26"/>
        <source>Time per iteration</source>
        <translation>Zeit pro Iteration</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="35"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="34"/>
        <source>worker</source>
        <translation>Worker</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WhatIfPanel</name>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="33"/>
        <source>What if (predicted)</source>
        <translation>Was wäre, wenn (Vorhersage)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="37"/>
        <source>What each mode would do if the run switched to it now, predicted from each worker&apos;s measured compute and communication times; the time to the target from the accuracy curve so far. The charts draw the predictions as dashed lines: tick a row to show or hide one, this box to show or hide them all.</source>
        <translation>Was jeder Modus leisten würde, wenn der Lauf jetzt zu ihm wechselte, vorhergesagt aus den gemessenen Rechen- und Kommunikationszeiten jedes Workers; die Zeit bis zum Ziel aus dem bisherigen Genauigkeitsverlauf. Die Diagramme zeigen die Vorhersagen gestrichelt: Eine Zeile abhaken blendet einen Modus ein oder aus, dieses Kästchen alle.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>staleness</source>
        <translation>Staleness</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="41"/>
        <source>to target</source>
        <translation>bis zum Ziel</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="77"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="78"/>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="79"/>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="129"/>
        <source>to %1%</source>
        <translation>bis %1 %</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="135"/>
        <source>Predicted time to the run&apos;s target accuracy</source>
        <translation>Vorhergesagte Zeit bis zur Zielgenauigkeit des Laufs</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="136"/>
        <source>Predicted time to 2 points above the best accuracy so far (the run has no target accuracy)</source>
        <translation>Vorhergesagte Zeit bis 2 Prozentpunkte über der bisher besten Genauigkeit (der Lauf hat keine Zielgenauigkeit)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="177"/>
        <source>The forecast puts the model there by now; the next evaluation tells</source>
        <translation>Laut Prognose ist das Modell schon so weit; die nächste Auswertung zeigt es</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="108"/>
        <source>%1 (now)</source>
        <translation>%1 (jetzt)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="117"/>
        <source>The mode running now: its live lines are in the charts</source>
        <translation>Der laufende Modus: Seine Live-Linien stehen in den Diagrammen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="118"/>
        <source>Tick to draw this mode&apos;s predicted samples/s and staleness in the charts</source>
        <translation>Abhaken, um die vorhergesagten Samples/s und die Staleness dieses Modus in den Diagrammen zu zeichnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="175"/>
        <source>by now</source>
        <translation>inzwischen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/what_if_panel.cpp" line="176"/>
        <source>No forecast yet: it needs three evaluations with the accuracy still rising</source>
        <translation>Noch keine Vorhersage: Dafür braucht es drei Auswertungen mit noch steigender Genauigkeit</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WorkerHeatmap</name>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="35"/>
        <source>Click a row to show that worker&apos;s lines</source>
        <translation>Eine Zeile anklicken, um die Linien dieses Workers zu zeigen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="40"/>
        <source>Samples/s per worker</source>
        <translation>Samples/s pro Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="41"/>
        <source>Staleness per worker</source>
        <translation>Staleness pro Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="42"/>
        <source>Share of time waiting</source>
        <translation>Wartezeitanteil</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_heatmap.cpp" line="192"/>
        <source>No figures yet</source>
        <translation>Noch keine Werte</translation>
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
        <translation>startet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="103"/>
        <source>computing</source>
        <translation>rechnet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="104"/>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="105"/>
        <source>lost</source>
        <translation>verloren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="106"/>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="107"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="113"/>
        <source>chronic</source>
        <translation>dauernd</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="114"/>
        <source>brief</source>
        <translation>zeitweise</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="115"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="138"/>
        <source>Below %1% of the median worker&apos;s samples/s in %2% of the last %3 s; %4% of its speed on average</source>
        <translation>Unter %1 % der Samples/s des Median-Workers in %2 % der letzten %3 s; im Mittel %4 % seiner Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="146"/>
        <source>Worker %1&apos;s process runs under a CPU limit of %2 CPUs (a quota on its cgroup: a container&apos;s or Slurm&apos;s CPU limit, or run --cpu-quota). The coordinator times its iterations by its CPU time over that limit, so elastic sizes its batch by it.</source>
        <translation>Der Prozess von Worker %1 läuft unter einer CPU-Grenze von %2 CPUs (ein Kontingent seiner cgroup: die CPU-Grenze eines Containers oder von Slurm, oder run --cpu-quota). Der Koordinator misst seine Iterationen an seiner CPU-Zeit geteilt durch diese Grenze, und elastic bemisst seinen Batch danach.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="156"/>
        <source>Double-click to move worker %1 to another group (0-%2)</source>
        <translation>Doppelklick verschiebt Worker %1 in eine andere Gruppe (0-%2)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="157"/>
        <source>Groups can be edited in the grouped mode</source>
        <translation>Gruppen können im gruppierten Modus bearbeitet werden</translation>
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
        <translation>Dauernd: in den letzten %1 s meist langsamer als der Median-Worker (eine langsame Maschine); zeitweise: ab und zu (kurze Aussetzer). Ein Spaltenkopf sortiert; dieser stellt die langsamsten nach vorn.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="209"/>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="210"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="211"/>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="212"/>
        <source>Samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="213"/>
        <source>Lag</source>
        <translation>Rückstand</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="214"/>
        <source>Staleness</source>
        <translation>Staleness</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="215"/>
        <source>Dropped</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="216"/>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="217"/>
        <source>Slowdown</source>
        <translation>Verlangsamung</translation>
    </message>
</context>
</TS>
