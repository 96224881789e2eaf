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
    <name>main</name>
    <message>
        <location filename="../app/console_main.cpp" line="30"/>
        <source>Run &apos;syncscope --help&apos; for the flags.</source>
        <translation>Mit „syncscope --help“ werden die Optionen angezeigt.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="91"/>
        <source>SyncScope console: watch and steer distributed training</source>
        <translation>SyncScope-Konsole: verteiltes Training beobachten und steuern</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="94"/>
        <source>Attach to a coordinator&apos;s control endpoint (telemetry: port + 1).</source>
        <translation>An den Steuerungsendpunkt eines Koordinators anhängen (Telemetrie: Port + 1).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="96"/>
        <source>Start a local cluster with N workers.</source>
        <translation>Einen lokalen Cluster mit N Workern starten.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="99"/>
        <source>The syncscope-engine binary for local clusters.</source>
        <translation>Die syncscope-engine-Programmdatei für lokale Cluster.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="102"/>
        <source>Language of the console: de, zh_CN or en (default: the system locale).</source>
        <translation>Sprache der Konsole: de, zh_CN oder en (Standard: das Gebietsschema des Systems).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="106"/>
        <source>Save a PNG of the window to FILE after a while of running, stop a local cluster, and exit.</source>
        <translation>Nach einer Weile Laufzeit ein PNG des Fensters in DATEI speichern, einen lokalen Cluster anhalten und beenden.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="110"/>
        <source>Seconds of running before --screenshot grabs the window (default: 10).</source>
        <translation>Sekunden Laufzeit, bevor --screenshot das Fenster aufnimmt (Standard: 10).</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="113"/>
        <source>Open a run recording for replay and export.</source>
        <translation>Eine Laufaufzeichnung zum Abspielen und Exportieren öffnen.</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="119"/>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>unerwartetes Argument „%1“</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="121"/>
        <source>give one of --attach, --local and --open</source>
        <translation>bitte nur eine von --attach, --local und --open angeben</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="127"/>
        <source>--attach &apos;%1&apos; is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:5556)</source>
        <translation>--attach „%1“ ist nicht tcp://HOST:PORT (z. B. tcp://127.0.0.1:5556)</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="134"/>
        <source>--local &apos;%1&apos; must be a number of workers from 1 to 1024</source>
        <translation>--local „%1“ muss eine Anzahl von Workern zwischen 1 und 1024 sein</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="137"/>
        <source>no syncscope-engine at &apos;%1&apos;; give its path with --engine PATH</source>
        <translation>keine syncscope-engine unter „%1“; ihren Pfad mit --engine PFAD angeben</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="142"/>
        <source>--screenshot needs --local N or --attach tcp://HOST:PORT</source>
        <translation>--screenshot braucht --local N oder --attach tcp://HOST:PORT</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="146"/>
        <source>--screenshot-after &apos;%1&apos; must be a number of seconds from 0 to 86400</source>
        <translation>--screenshot-after „%1“ muss eine Anzahl von Sekunden zwischen 0 und 86400 sein</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="155"/>
        <source>--screenshot-after needs --screenshot FILE</source>
        <translation>--screenshot-after braucht --screenshot DATEI</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="172"/>
        <source>syncscope: saved the window to &apos;%1&apos;</source>
        <translation>syncscope: Fenster in „%1“ gespeichert</translation>
    </message>
    <message>
        <location filename="../app/console_main.cpp" line="175"/>
        <source>could not save the screenshot to &apos;%1&apos; (is the folder there and writable?)</source>
        <translation>Bildschirmfoto konnte nicht in „%1“ gespeichert werden (existiert der Ordner und ist er beschreibbar?)</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ChartsPanel</name>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="20"/>
        <source>Samples/s per worker</source>
        <translation>Samples/s pro Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="20"/>
        <source>samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="21"/>
        <source>Staleness (mean per worker)</source>
        <translation>Veraltung (Mittel pro Worker)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="21"/>
        <source>versions behind</source>
        <translation>Versionen zurück</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="22"/>
        <source>Training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="22"/>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="23"/>
        <source>Test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="23"/>
        <source>accuracy (%)</source>
        <translation>Genauigkeit (%)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="27"/>
        <source>All workers</source>
        <translation>Alle Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="62"/>
        <location filename="../ui/widgets/charts_panel.cpp" line="63"/>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="67"/>
        <source>training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="68"/>
        <source>test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/charts_panel.cpp" line="79"/>
        <source>Worker %1</source>
        <translation>Worker %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ConnectDialog</name>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="18"/>
        <source>Connect to a run</source>
        <translation>Mit einem Lauf verbinden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="20"/>
        <source>Start a local cluster</source>
        <translation>Einen lokalen Cluster starten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="21"/>
        <source>Attach to a running coordinator</source>
        <translation>An einen laufenden Koordinator anhängen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="47"/>
        <source>Control endpoint</source>
        <translation>Steuerungsendpunkt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="48"/>
        <source>Telemetry endpoint</source>
        <translation>Telemetrie-Endpunkt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="67"/>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="68"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="69"/>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="70"/>
        <source>Sync mode</source>
        <translation>Synchronisationsmodus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/connect_dialog.cpp" line="71"/>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::MainWindow</name>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="32"/>
        <source>waiting for workers</source>
        <translation>wartet auf Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="33"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="34"/>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="35"/>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="36"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
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
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="67"/>
        <source>Detached: %1</source>
        <translation>Getrennt: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="70"/>
        <source>Connection lost: %1</source>
        <translation>Verbindung verloren: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="78"/>
        <source>Steering</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="85"/>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="92"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="93"/>
        <source>&amp;Attach…</source>
        <translation>&amp;Anhängen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="94"/>
        <source>Start &amp;local cluster…</source>
        <translation>&amp;Lokalen Cluster starten…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="95"/>
        <source>&amp;Detach</source>
        <translation>&amp;Trennen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="100"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="101"/>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="103"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="104"/>
        <source>&amp;Wall-clock time axis</source>
        <translation>&amp;Uhrzeit-Zeitachse</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="107"/>
        <source>&amp;Log-scale loss</source>
        <translation>&amp;Logarithmischer Verlust</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="139"/>
        <source>Cannot attach: give both endpoints as tcp://HOST:PORT.</source>
        <translation>Anhängen nicht möglich: beide Endpunkte als tcp://HOST:PORT angeben.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="144"/>
        <source>Attaching to %1…</source>
        <translation>Hänge an %1 an…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="164"/>
        <source>Replay: %1</source>
        <translation>Wiedergabe: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="165"/>
        <source>Opened recording %1 (%2 s)</source>
        <translation>Aufzeichnung %1 geöffnet (%2 s)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="169"/>
        <source>Exported the charts to %1</source>
        <translation>Diagramme nach %1 exportiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="184"/>
        <source>State: %1</source>
        <translation>Zustand: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="185"/>
        <source>Mode: %1</source>
        <translation>Modus: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="186"/>
        <source>Version %1</source>
        <translation>Version %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="187"/>
        <source>Accuracy: –</source>
        <translation>Genauigkeit: –</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="188"/>
        <source>Accuracy: %1%</source>
        <translation>Genauigkeit: %1 %</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="195"/>
        <source>[%1 s] %2: %3</source>
        <translation>[%1 s] %2: %3</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="210"/>
        <source>Command %1 refused: %2</source>
        <translation>Befehl %1 abgelehnt: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="214"/>
        <source>Command %1 done: %2</source>
        <translation>Befehl %1 ausgeführt: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="214"/>
        <source>no event</source>
        <translation>kein Ereignis</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="219"/>
        <source>A local cluster is already running; stop it first.</source>
        <translation>Ein lokaler Cluster läuft bereits; zuerst anhalten.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="234"/>
        <source>Cannot run %1: %2</source>
        <translation>%1 kann nicht ausgeführt werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="236"/>
        <source>Starting a local cluster: %1 %2</source>
        <translation>Starte einen lokalen Cluster: %1 %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="250"/>
        <source>The coordinator did not report its endpoints: %1</source>
        <translation>Der Koordinator hat seine Endpunkte nicht gemeldet: %1</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="283"/>
        <source>Stop the local cluster?</source>
        <translation>Den lokalen Cluster anhalten?</translation>
    </message>
    <message>
        <location filename="../ui/widgets/main_window.cpp" line="284"/>
        <source>This window started a local cluster. Stop its coordinator and workers?</source>
        <translation>Dieses Fenster hat einen lokalen Cluster gestartet. Seinen Koordinator und seine Worker anhalten?</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::NetworkWorker</name>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="27"/>
        <source>attached to %1: %2, %3 workers, %4; %5 ticks and %6 events of history</source>
        <translation>an %1 angehängt: %2, %3 Worker, %4; %5 Takte und %6 Ereignisse Verlauf</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="43"/>
        <source>re-attaching to %1</source>
        <translation>hänge erneut an %1 an</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="57"/>
        <source>cannot connect to %1 and %2: %3 (expected endpoints like tcp://HOST:PORT)</source>
        <translation>keine Verbindung zu %1 und %2: %3 (erwartet werden Endpunkte wie tcp://HOST:PORT)</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="70"/>
        <source>detached from %1</source>
        <translation>von %1 getrennt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="76"/>
        <source>the console built an unreadable request</source>
        <translation>die Konsole hat eine unlesbare Anfrage erzeugt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="80"/>
        <source>not attached to a coordinator</source>
        <translation>nicht an einen Koordinator angehängt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="86"/>
        <source>could not send to %1: %2</source>
        <translation>konnte nicht an %1 senden: %2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="91"/>
        <source>the console is closing</source>
        <translation>die Konsole wird geschlossen</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="107"/>
        <source>network error on %1: %2</source>
        <translation>Netzwerkfehler bei %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="149"/>
        <source>no telemetry from %1 within 5 s: is a coordinator running there?</source>
        <translation>keine Telemetrie von %1 innerhalb von 5 s: läuft dort ein Koordinator?</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="153"/>
        <source>no snapshot reply from %1 within 5 s: is it the control endpoint of the coordinator at %2?</source>
        <translation>keine Snapshot-Antwort von %1 innerhalb von 5 s: ist das der Steuerungsendpunkt des Koordinators unter %2?</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="159"/>
        <source>no telemetry from %1 for 3 s: the coordinator stopped or the network is down; waiting for it to come back</source>
        <translation>seit 3 s keine Telemetrie von %1: der Koordinator wurde angehalten oder das Netzwerk ist ausgefallen; warte, bis er zurückkommt</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="167"/>
        <source>no reply from %1 within 5 s</source>
        <translation>keine Antwort von %1 innerhalb von 5 s</translation>
    </message>
    <message>
        <location filename="../ui/net/network_worker.cpp" line="204"/>
        <source>the coordinator at %1 refused the snapshot request: %2</source>
        <translation>der Koordinator unter %1 hat die Snapshot-Anfrage abgelehnt: %2</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::ReplayBar</name>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="27"/>
        <source>Replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="30"/>
        <location filename="../ui/widgets/replay_bar.cpp" line="94"/>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="31"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="36"/>
        <source>Replay position: drag to seek</source>
        <translation>Wiedergabeposition: zum Springen ziehen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="38"/>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="40"/>
        <source>Playback speed</source>
        <translation>Wiedergabegeschwindigkeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="53"/>
        <source>&amp;Open recording…</source>
        <translation>Aufzeichnung ö&amp;ffnen…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="54"/>
        <source>Open recording</source>
        <translation>Aufzeichnung öffnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="55"/>
        <source>SyncScope recordings (*.ssrec);;All files (*)</source>
        <translation>SyncScope-Aufzeichnungen (*.ssrec);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="58"/>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="60"/>
        <source>&amp;CSV…</source>
        <translation>&amp;CSV…</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="61"/>
        <source>Export CSV</source>
        <translation>CSV exportieren</translation>
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
        <translation>JSON Lines exportieren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="64"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="71"/>
        <source>Exported the recording to %1</source>
        <translation>Aufzeichnung nach %1 exportiert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="79"/>
        <source>Exports an open recording: record a live run with --record, then open it.</source>
        <translation>Exportiert eine geöffnete Aufzeichnung: einen laufenden Lauf mit --record aufzeichnen und dann öffnen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="90"/>
        <source>%1 s / %2 s</source>
        <translation>%1 s / %2 s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_bar.cpp" line="94"/>
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
        <translation>Die Aufzeichnung %1 enthält keine Telemetrie-Takte: nichts wiederzugeben.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="48"/>
        <source>Recording %1 opened with a warning: %2</source>
        <translation>Aufzeichnung %1 mit einer Warnung geöffnet: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="112"/>
        <source>No recording is open: open one with File → Open recording… first.</source>
        <translation>Keine Aufzeichnung geöffnet: zuerst eine mit Datei → Aufzeichnung öffnen… öffnen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="116"/>
        <source>Cannot export to %1: the name must end in .csv or .jsonl.</source>
        <translation>Export nach %1 nicht möglich: der Name muss auf .csv oder .jsonl enden.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="118"/>
        <source>Cannot write %1: check that the folder exists and is writable.</source>
        <translation>%1 kann nicht geschrieben werden: prüfen, ob der Ordner existiert und beschreibbar ist.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="121"/>
        <source>Export to %1 failed: %2</source>
        <translation>Export nach %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location filename="../ui/widgets/replay_controller.cpp" line="123"/>
        <source>Writing %1 failed (disk full?).</source>
        <translation>Schreiben von %1 fehlgeschlagen (Datenträger voll?).</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::StalenessHistogram</name>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="15"/>
        <source>gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="16"/>
        <source>Staleness histogram</source>
        <translation>Veraltungshistogramm</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="29"/>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="32"/>
        <source>staleness τ (versions behind)</source>
        <translation>Veraltung τ (Versionen zurück)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/staleness_histogram.cpp" line="36"/>
        <source>gradients applied</source>
        <translation>angewandte Gradienten</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::SteeringPanel</name>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="37"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="39"/>
        <source>Start</source>
        <translation>Start</translation>
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
        <translation>Pause</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="42"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="43"/>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="44"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="59"/>
        <source>Synchronisation</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="62"/>
        <source>BSP (bulk synchronous)</source>
        <translation>BSP (massiv synchron)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="63"/>
        <source>ASP (asynchronous)</source>
        <translation>ASP (asynchron)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="64"/>
        <source>SSP (stale synchronous)</source>
        <translation>SSP (veraltet synchron)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="69"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="70"/>
        <source>inverse (lr / staleness)</source>
        <translation>invers (lr / Veraltung)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="71"/>
        <source>DynSGD (lr / (staleness + 1))</source>
        <translation>DynSGD (lr / (Veraltung + 1))</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="72"/>
        <source>Apply mode</source>
        <translation>Modus anwenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="84"/>
        <source>Grouped mode (G groups) is not in this engine yet.</source>
        <translation>Gruppierter Modus (G Gruppen) ist in dieser Engine noch nicht vorhanden.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="90"/>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="96"/>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="97"/>
        <source>Staleness bound s</source>
        <translation>Veraltungsgrenze s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="98"/>
        <source>LR modulation</source>
        <translation>LR-Modulation</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="100"/>
        <source>Groups</source>
        <translation>Gruppen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="101"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="106"/>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="127"/>
        <source>Slowdown of worker %1: compute time x factor (1-10)</source>
        <translation>Verlangsamung von Worker %1: Rechenzeit × Faktor (1–10)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/steering_panel.cpp" line="156"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::TimeChart</name>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="57"/>
        <source>Drag: zoom · Wheel: zoom · Shift+drag or middle drag, ←/→: pan · Double-click: follow the run</source>
        <translation>Ziehen: Zoom · Mausrad: Zoom · Umschalt+Ziehen oder mittlere Taste, ←/→: verschieben · Doppelklick: dem Lauf folgen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="59"/>
        <source>time since start (s)</source>
        <translation>Zeit seit Start (s)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="63"/>
        <source>wall-clock time</source>
        <translation>Uhrzeit</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_chart.cpp" line="106"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
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
        <translation>Rechnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="18"/>
        <source>communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="19"/>
        <source>waiting</source>
        <translation>Warten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="22"/>
        <source>Time split of the latest iteration</source>
        <translation>Zeitaufteilung der letzten Iteration</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="30"/>
        <source>ms per iteration</source>
        <translation>ms pro Iteration</translation>
    </message>
    <message>
        <location filename="../ui/widgets/time_split_chart.cpp" line="53"/>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
</context>
<context>
    <name>syncscope::ui::WorkerTableModel</name>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="37"/>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="38"/>
        <source>computing</source>
        <translation>rechnet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="39"/>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="40"/>
        <source>lost</source>
        <translation>verloren</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="41"/>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="42"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="68"/>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="69"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="70"/>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="71"/>
        <source>Samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="72"/>
        <source>Staleness</source>
        <translation>Veraltung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="73"/>
        <source>Dropped</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="74"/>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <location filename="../ui/widgets/worker_table_model.cpp" line="75"/>
        <source>Slowdown</source>
        <translation>Verlangsamung</translation>
    </message>
</context>
</TS>
