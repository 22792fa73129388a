<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Co&amp;mpare With…</source>
        <translation>Ver&amp;gleichen mit…</translation>
    </message>
    <message>
        <source>What differs between two models: tensors, values, kinds of change, metadata.</source>
        <translation>Was sich zwischen zwei Modellen unterscheidet: Tensoren, Werte, Art der Änderung, Metadaten.</translation>
    </message>
    <message>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <source>same values</source>
        <translation>gleiche Werte</translation>
    </message>
    <message>
        <source>rounding to %1</source>
        <translation>gerundet auf %1</translation>
    </message>
    <message>
        <source>scaled ×%1</source>
        <translation>skaliert ×%1</translation>
    </message>
    <message>
        <source>sparse (%1)</source>
        <translation>dünn besetzt (%1)</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>noise-like</source>
        <translation>rauschartig</translation>
    </message>
    <message>
        <source>full rank</source>
        <translation>voller Rang</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>dicht</translation>
    </message>
    <message>
        <source>not compared</source>
        <translation>nicht verglichen</translation>
    </message>
    <message>
        <source>Finding identical tensors</source>
        <translation>Identische Tensoren werden gesucht</translation>
    </message>
    <message>
        <source>Comparing values</source>
        <translation>Werte werden verglichen</translation>
    </message>
    <message>
        <source>Estimating ranks</source>
        <translation>Ränge werden geschätzt</translation>
    </message>
    <message>
        <source>%1 with the same values</source>
        <translation>%1 mit gleichen Werten</translation>
    </message>
    <message>
        <source>%1 rounded</source>
        <translation>%1 gerundet</translation>
    </message>
    <message>
        <source>%1 scaled</source>
        <translation>%1 skaliert</translation>
    </message>
    <message>
        <source>%1 low-rank</source>
        <translation>%1 mit niedrigem Rang</translation>
    </message>
    <message>
        <source>%1 noise-like</source>
        <translation>%1 rauschartig</translation>
    </message>
    <message>
        <source>%1 full-rank</source>
        <translation>%1 mit vollem Rang</translation>
    </message>
    <message>
        <source>%1 dense</source>
        <translation>%1 dicht</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>undefined (a side is all zero)</source>
        <translation>undefiniert (eine Seite ist ganz null)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>1 sparse edit</source>
        <translation>1 dünn besetzte Änderung</translation>
    </message>
    <message>
        <source>%1 sparse edits</source>
        <translation>%1 dünn besetzte Änderungen</translation>
    </message>
</context>
<context>
    <name>ts::ui</name>
    <message>
        <source>%1: none (no finite value, or not computed)</source>
        <translation>%1: keine Angabe (kein endlicher Wert oder nicht berechnet)</translation>
    </message>
    <message>
        <source>%1 %2: not compared (fewer than %3 siblings of its shape and dtype with %4 values)</source>
        <translation>%1 %2: nicht verglichen (weniger als %3 Geschwister gleicher Form und gleichen Datentyps mit mindestens %4 Werten)</translation>
    </message>
    <message>
        <source>%1 %2: the median is %3 over %4 blocks (robust z %5)</source>
        <translation>%1 %2: der Median ist %3 über %4 Blöcke (robustes z %5)</translation>
    </message>
    <message>
        <source>%1 %2: %3 the median %4 of %5 blocks (robust z %6)</source>
        <translation>%1 %2: %3 des Medians %4 von %5 Blöcken (robustes z %6)</translation>
    </message>
    <message>
        <source>block %1 · %2</source>
        <translation>Block %1 · %2</translation>
    </message>
    <message>
        <source>LayerOutlier: listed in the audit</source>
        <translation>LayerOutlier: in der Prüfliste aufgeführt</translation>
    </message>
    <message>
        <source>has %1 values</source>
        <translation>hat %1-Werte</translation>
    </message>
</context>
<context>
    <name>ts::ui::AnomalyNavigator</name>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>−Inf</source>
        <translation>−Inf</translation>
    </message>
    <message>
        <source>outlier</source>
        <translation>Ausreißer</translation>
    </message>
    <message>
        <source>Next Anomaly</source>
        <translation>Nächste Anomalie</translation>
    </message>
    <message>
        <source>Previous Anomaly</source>
        <translation>Vorherige Anomalie</translation>
    </message>
    <message>
        <source>NaN, Inf or outlier</source>
        <translation>NaN, Inf oder Ausreißer</translation>
    </message>
    <message>
        <source>Inf</source>
        <translation>Inf</translation>
    </message>
    <message>
        <source>Outlier</source>
        <translation>Ausreißer</translation>
    </message>
    <message>
        <source>What Next and Previous walk to. Outliers are the scan&apos;s: more than 100 standard deviations from the rest of the tensor.</source>
        <translation>Wohin „Weiter“ und „Zurück“ springen. Ausreißer sind die des Scans: mehr als 100 Standardabweichungen vom Rest des Tensors entfernt.</translation>
    </message>
    <message>
        <source>Go to the next NaN, Inf or outlier in the value grid and the heatmap (%1)</source>
        <translation>Zum nächsten NaN, Inf oder Ausreißer im Wertegitter und in der Heatmap gehen (%1)</translation>
    </message>
    <message>
        <source>Go to the previous NaN, Inf or outlier (%1)</source>
        <translation>Zum vorherigen NaN, Inf oder Ausreißer gehen (%1)</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>Suchen:</translation>
    </message>
    <message>
        <source>Cannot look for anomalies: %1</source>
        <translation>Anomalien können nicht gesucht werden: %1</translation>
    </message>
    <message>
        <source>Finding the NaN, Inf and outliers…</source>
        <translation>NaN, Inf und Ausreißer werden gesucht…</translation>
    </message>
    <message>
        <source>Looking for NaN, Inf and outliers once the statistics are in…</source>
        <translation>NaN, Inf und Ausreißer werden gesucht, sobald die Statistik vorliegt…</translation>
    </message>
    <message>
        <source>No NaN, Inf or outlier in this tensor.</source>
        <translation>Kein NaN, Inf oder Ausreißer in diesem Tensor.</translation>
    </message>
    <message>
        <source>%1 %2 of %3 at flat index %4</source>
        <translation>%1 %2 von %3 an flachem Index %4</translation>
    </message>
    <message>
        <source>None of these in this tensor.</source>
        <translation>Nichts davon in diesem Tensor.</translation>
    </message>
    <message>
        <source>%1 — %2 goes to the first.</source>
        <translation>%1 — %2 springt zum ersten.</translation>
    </message>
    <message>
        <source> (only the first %1 are listed)</source>
        <translation> (nur die ersten %1 sind aufgeführt)</translation>
    </message>
</context>
<context>
    <name>ts::ui::ArchitecturePanel</name>
    <message>
        <source>cannot tell</source>
        <translation>nicht erkennbar</translation>
    </message>
    <message>
        <source>config.json: %1 = %2</source>
        <translation>config.json: %1 = %2</translation>
    </message>
    <message>
        <source>Architecture: %1</source>
        <translation>Architektur: %1</translation>
    </message>
    <message>
        <source>Architecture: not recognised</source>
        <translation>Architektur: nicht erkannt</translation>
    </message>
    <message>
        <source>No config.json beside the weights: the fields are what the names and shapes say.</source>
        <translation>Keine config.json neben den Gewichten: Die Felder sind das, was Namen und Formen aussagen.</translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <translation>%1 %2.</translation>
    </message>
    <message>
        <source>Compared with %1%2: %3 agree, %4 disagree%5.</source>
        <translation>Verglichen mit %1%2: %3 stimmen überein, %4 weichen ab%5.</translation>
    </message>
    <message>
        <source>; see the audit list</source>
        <translation>; siehe Prüfliste</translation>
    </message>
    <message>
        <source>&lt;b&gt;Parameters as the Hub counts: %1&lt;/b&gt; (%2) &amp;middot; %3 &amp;middot; elements %4</source>
        <translation>&lt;b&gt;Parameter nach Zählweise des Hubs: %1&lt;/b&gt; (%2) &amp;middot; %3 &amp;middot; Elemente %4</translation>
    </message>
    <message>
        <source>The Hub&apos;s rule: %1.</source>
        <translation>Regel des Hubs: %1.</translation>
    </message>
    <message>
        <source>
Left out: %1 tensors (%2 elements): scalars, scales, zero points, quantisation state.</source>
        <translation>
Nicht gezählt: %1 Tensoren (%2 Elemente): Skalare, Skalierungen, Nullpunkte, Quantisierungszustand.</translation>
    </message>
    <message>
        <source>
quantization_config: %1.</source>
        <translation>
quantization_config: %1.</translation>
    </message>
    <message>
        <source>
The metadata declares total_parameters %1.</source>
        <translation>
Die Metadaten geben total_parameters %1 an.</translation>
    </message>
    <message>
        <source>Parameters as the Hub counts: its weights cannot be read (%1)</source>
        <translation>Parameter nach Zählweise des Hubs: Die Gewichte können nicht gelesen werden (%1)</translation>
    </message>
    <message>
        <source>Parameters as the Hub counts: %1</source>
        <translation>Parameter nach Zählweise des Hubs: %1</translation>
    </message>
    <message>
        <source> (shown)</source>
        <translation> (angezeigt)</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>nicht lesbar</translation>
    </message>
    <message>
        <source>Pipeline components: %1</source>
        <translation>Pipeline-Komponenten: %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::AuditModel</name>
    <message>
        <source>header</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>%1
Double-click to show the tensor.</source>
        <translation>%1
Doppelklick zeigt den Tensor.</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schwere</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>Offset</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>ts::ui::AxisPicker</name>
    <message>
        <source>Rows:</source>
        <translation>Zeilen:</translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation>Spalten:</translation>
    </message>
    <message>
        <source>axis %1 (%2)</source>
        <translation>Achse %1 (%2)</translation>
    </message>
    <message>
        <source>Rank %1: axes of length 1 are not listed.</source>
        <translation>Rang %1: Achsen der Länge 1 sind nicht aufgeführt.</translation>
    </message>
    <message>
        <source>index on axis %1:</source>
        <translation>Index auf Achse %1:</translation>
    </message>
</context>
<context>
    <name>ts::ui::CompareDialog</name>
    <message>
        <source>Estimate the rank of every changed matrix (reads them a few more times)</source>
        <translation>Den Rang jeder geänderten Matrix schätzen (liest sie noch einige Male)</translation>
    </message>
    <message>
        <source>Compare Checkpoints</source>
        <translation>Checkpoints vergleichen</translation>
    </message>
    <message>
        <source>&amp;A (base):</source>
        <translation>&amp;A (Basis):</translation>
    </message>
    <message>
        <source>&amp;B:</source>
        <translation>&amp;B:</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>Datei…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>Ordner…</translation>
    </message>
    <message>
        <source>Choose a Model</source>
        <translation>Modell auswählen</translation>
    </message>
    <message>
        <source>Safetensors models (*.safetensors *.safetensors.index.json *.json);;All files (*)</source>
        <translation>Safetensors-Modelle (*.safetensors *.safetensors.index.json *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose a Sharded Model Folder</source>
        <translation>Ordner eines aufgeteilten Modells auswählen</translation>
    </message>
    <message>
        <source>^model\.diffusion_model\.=unet.
(one REGEX=REPLACEMENT per line, \1 for a group)</source>
        <translation>^model\.diffusion_model\.=unet.
(eine REGEX=ERSATZ-Regel pro Zeile, \1 für eine Gruppe)</translation>
    </message>
    <message>
        <source>Tensors of A that B has under another name: each rule maps A&apos;s names to B&apos;s. They apply only to tensors whose names do not pair by themselves. What is left pairs by content and by shape, as suggestions.</source>
        <translation>Tensoren von A, die B unter anderem Namen hat: Jede Regel bildet die Namen von A auf die von B ab. Sie gilt nur für Tensoren, deren Namen sich nicht von selbst zuordnen. Was übrig bleibt, wird nach Inhalt und Form zugeordnet, als Vorschlag.</translation>
    </message>
    <message>
        <source>&amp;Rename rules:</source>
        <translation>&amp;Umbenennungsregeln:</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Choose both models.</source>
        <translation>Wählen Sie beide Modelle aus.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 existiert nicht.</translation>
    </message>
    <message>
        <source>Rule %1: %2</source>
        <translation>Regel %1: %2</translation>
    </message>
</context>
<context>
    <name>ts::ui::CompareLayerChart</name>
    <message>
        <source>Per layer:</source>
        <translation>Pro Schicht:</translation>
    </message>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>%1 — largest change in each block</source>
        <translation>%1 — größte Änderung in jedem Block</translation>
    </message>
    <message>
        <source>%1 (%2 blocks)</source>
        <translation>%1 (%2 Blöcke)</translation>
    </message>
    <message>
        <source>No repeated numbered blocks (such as layers.N.) among the paired tensors.</source>
        <translation>Keine wiederholten nummerierten Blöcke (wie layers.N.) unter den zugeordneten Tensoren.</translation>
    </message>
    <message>
        <source>Unchanged (not drawn on the log scale): block %1.</source>
        <translation>Unverändert (auf der logarithmischen Skala nicht gezeichnet): Block %1.</translation>
    </message>
    <message>
        <source>relative change ‖B − A‖ / ‖A‖</source>
        <translation>relative Änderung ‖B − A‖ / ‖A‖</translation>
    </message>
</context>
<context>
    <name>ts::ui::CompareTableModel</name>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Rel. L2</source>
        <translation>Rel. L2</translation>
    </message>
    <message>
        <source>At</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>Kosinus</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Paired by</source>
        <translation>Zugeordnet über</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>rename rule</source>
        <translation>Umbenennungsregel</translation>
    </message>
    <message>
        <source>same content (suggested)</source>
        <translation>gleicher Inhalt (vorgeschlagen)</translation>
    </message>
    <message>
        <source>same shape (suggested)</source>
        <translation>gleiche Form (vorgeschlagen)</translation>
    </message>
    <message>
        <source>added (only in B)</source>
        <translation>hinzugefügt (nur in B)</translation>
    </message>
    <message>
        <source>removed (only in A)</source>
        <translation>entfernt (nur in A)</translation>
    </message>
    <message>
        <source>Max |B−A|</source>
        <translation>Max |B−A|</translation>
    </message>
</context>
<context>
    <name>ts::ui::CompareView</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Show identical</source>
        <translation>Identische zeigen</translation>
    </message>
    <message>
        <source>Filter by name</source>
        <translation>Nach Namen filtern</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>A: %1
B: %2</source>
        <translation>A: %1
B: %2</translation>
    </message>
    <message>
        <source>A: %1    B: %2</source>
        <translation>A: %1    B: %2</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>Wird geöffnet…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>The comparison was cancelled; nothing is shown.</source>
        <translation>Der Vergleich wurde abgebrochen; es wird nichts angezeigt.</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1: %2 von %3</translation>
    </message>
    <message>
        <source>Failed.</source>
        <translation>Fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The comparison stopped: %1</source>
        <translation>Der Vergleich wurde beendet: %1</translation>
    </message>
    <message>
        <source>Identical: %1 with the same bytes and the same metadata.</source>
        <translation>Identisch: %1 mit denselben Bytes und denselben Metadaten.</translation>
    </message>
    <message>
        <source>%1: %2 identical, %3 changed%4</source>
        <translation>%1: %2 identisch, %3 geändert%4</translation>
    </message>
    <message>
        <source>, %1 not compared</source>
        <translation>, %1 nicht verglichen</translation>
    </message>
    <message>
        <source>%1 renamed (%2 suggested)</source>
        <translation>%1 umbenannt (%2 vorgeschlagen)</translation>
    </message>
    <message>
        <source>%1 in another dtype</source>
        <translation>%1 in anderem Datentyp</translation>
    </message>
    <message>
        <source>%1 reshaped</source>
        <translation>%1 umgeformt</translation>
    </message>
    <message>
        <source>%1 only in B, %2 only in A</source>
        <translation>%1 nur in B, %2 nur in A</translation>
    </message>
    <message>
        <source>Read %1 in %2 s.</source>
        <translation>%1 in %2 s gelesen.</translation>
    </message>
    <message>
        <source>Changes (%1)</source>
        <translation>Änderungen (%1)</translation>
    </message>
    <message>
        <source>Metadata (%1)</source>
        <translation>Metadaten (%1)</translation>
    </message>
    <message>
        <source>1 metadata key differs</source>
        <translation>1 Metadatenschlüssel unterscheidet sich</translation>
    </message>
    <message>
        <source>%1 metadata keys differ</source>
        <translation>%1 Metadatenschlüssel unterscheiden sich</translation>
    </message>
</context>
<context>
    <name>ts::ui::ConvertDialog</name>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>&amp;Convert</source>
        <translation>&amp;Konvertieren</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Convert %1</source>
        <translation>%1 konvertieren</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Beibehalten</translation>
    </message>
    <message>
        <source>globs, e.g. model.layers.*  (empty: every tensor)</source>
        <translation>Globs, z. B. model.layers.*  (leer: jeder Tensor)</translation>
    </message>
    <message>
        <source>globs, e.g. *.bias lm_head.*</source>
        <translation>Globs, z. B. *.bias lm_head.*</translation>
    </message>
    <message>
        <source>one REGEX=REPLACEMENT per line, applied in order, e.g. ^model\.=</source>
        <translation>eine REGEX=ERSATZ-Regel pro Zeile, der Reihe nach angewandt, z. B. ^model\.=</translation>
    </message>
    <message>
        <source>one GLOB=DTYPE per line, the last match wins, e.g. *norm*=F32 (overrides the dtype above)</source>
        <translation>ein GLOB=DTYPE pro Zeile, der letzte Treffer gilt, z. B. *norm*=F32 (hat Vorrang vor dem Datentyp oben)</translation>
    </message>
    <message>
        <source>one KEY=VALUE per line, e.g. format=pt</source>
        <translation>ein SCHLÜSSEL=WERT pro Zeile, z. B. format=pt</translation>
    </message>
    <message>
        <source>one key per line</source>
        <translation>ein Schlüssel pro Zeile</translation>
    </message>
    <message>
        <source>none: one file; e.g. 2GB or 500MB for Hugging Face shards</source>
        <translation>keine: eine Datei; z. B. 2GB oder 500MB für Hugging-Face-Shards</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Floating tensors to:</source>
        <translation>Gleitkomma-Tensoren nach:</translation>
    </message>
    <message>
        <source>Per-tensor dtype:</source>
        <translation>Datentyp pro Tensor:</translation>
    </message>
    <message>
        <source>Include:</source>
        <translation>Einschließen:</translation>
    </message>
    <message>
        <source>Exclude:</source>
        <translation>Ausschließen:</translation>
    </message>
    <message>
        <source>Rename:</source>
        <translation>Umbenennen:</translation>
    </message>
    <message>
        <source>Remove:</source>
        <translation>Entfernen:</translation>
    </message>
    <message>
        <source>Set metadata:</source>
        <translation>Metadaten setzen:</translation>
    </message>
    <message>
        <source>Shard size:</source>
        <translation>Shard-Größe:</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>Ausgabe:</translation>
    </message>
    <message>
        <source>Preview to see the result and what the conversion does to the values.</source>
        <translation>Die Vorschau zeigt das Ergebnis und was die Konvertierung mit den Werten macht.</translation>
    </message>
    <message>
        <source>Checking values…</source>
        <translation>Werte werden geprüft…</translation>
    </message>
    <message>
        <source>Choose an output file.</source>
        <translation>Wählen Sie eine Ausgabedatei.</translation>
    </message>
    <message>
        <source>Replace File</source>
        <translation>Datei ersetzen</translation>
    </message>
    <message>
        <source>%1 exists. Replace it?</source>
        <translation>%1 existiert. Ersetzen?</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>%1 wird geschrieben…</translation>
    </message>
    <message>
        <source>Preview cancelled.</source>
        <translation>Vorschau abgebrochen.</translation>
    </message>
    <message>
        <source>Conversion cancelled; nothing was written to %1.</source>
        <translation>Konvertierung abgebrochen; nach %1 wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>%1 geschrieben.</translation>
    </message>
    <message>
        <source>Wrote %1 files to %2.</source>
        <translation>%1 Dateien nach %2 geschrieben.</translation>
    </message>
    <message>
        <source>The options changed: preview again before converting.</source>
        <translation>Die Optionen haben sich geändert: Vor dem Konvertieren erneut Vorschau anzeigen.</translation>
    </message>
    <message>
        <source>Folder for the Shards</source>
        <translation>Ordner für die Shards</translation>
    </message>
    <message>
        <source>Convert To</source>
        <translation>Konvertieren nach</translation>
    </message>
    <message>
        <source>Safetensors (*.safetensors)</source>
        <translation>Safetensors (*.safetensors)</translation>
    </message>
    <message>
        <source>Problems only</source>
        <translation>Nur Probleme</translation>
    </message>
    <message>
        <source>Show only tensors with overflow, underflow to zero, NaN or Inf in the source, or a dtype kept against the request.</source>
        <translation>Nur Tensoren mit Überlauf, Unterlauf auf null, NaN oder Inf in der Quelle oder mit einem entgegen der Anfrage beibehaltenen Datentyp zeigen.</translation>
    </message>
    <message>
        <source>%1, %2 → %3; %4 overflowed, %5 underflowed to zero, %6 NaN and %7 Inf in the source.</source>
        <translation>%1, %2 → %3; %4 übergelaufen, %5 auf null unterlaufen, %6 NaN und %7 Inf in der Quelle.</translation>
    </message>
    <message>
        <source>1 value is</source>
        <translation>1 Wert liegt</translation>
    </message>
    <message>
        <source>%1 values are</source>
        <translation>%1 Werte liegen</translation>
    </message>
    <message>
        <source>Problems only (%1 of %2 tensors)</source>
        <translation>Nur Probleme (%1 von %2 Tensoren)</translation>
    </message>
    <message>
        <source>Warning: %1 out of range of their new dtype and become Inf (or ±448 in F8_E4M3).</source>
        <translation>Warnung: %1 außerhalb des Bereichs des neuen Datentyps und werden zu Inf (oder ±448 in F8_E4M3).</translation>
    </message>
</context>
<context>
    <name>ts::ui::ConvertPreviewModel</name>
    <message>
        <source>from &quot;%1&quot;</source>
        <translation>aus „%1“</translation>
    </message>
    <message>
        <source>from &quot;%1&quot;; %2</source>
        <translation>aus „%1“; %2</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>New dtype</source>
        <translation>Neuer Datentyp</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>New bytes</source>
        <translation>Neue Bytes</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>Überlauf</translation>
    </message>
    <message>
        <source>Underflow</source>
        <translation>Unterlauf</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>%1
Renamed from %2</source>
        <translation>%1
Umbenannt von %2</translation>
    </message>
    <message>
        <source>NaN values in the source tensor; they stay NaN.</source>
        <translation>NaN-Werte im Quelltensor; sie bleiben NaN.</translation>
    </message>
    <message>
        <source>±Inf values in the source tensor; they stay Inf (F8_E4M3 saturates them).</source>
        <translation>±Inf-Werte im Quelltensor; sie bleiben Inf (F8_E4M3 sättigt sie).</translation>
    </message>
    <message>
        <source>Inf</source>
        <translation>Inf</translation>
    </message>
</context>
<context>
    <name>ts::ui::CountText</name>
    <message>
        <source>1 tensor</source>
        <translation>1 Tensor</translation>
    </message>
    <message>
        <source>%1 tensors</source>
        <translation>%1 Tensoren</translation>
    </message>
    <message>
        <source>1 finding</source>
        <translation>1 Fund</translation>
    </message>
    <message>
        <source>%1 findings</source>
        <translation>%1 Funde</translation>
    </message>
    <message>
        <source>1 error</source>
        <translation>1 Fehler</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>%1 Fehler</translation>
    </message>
    <message>
        <source>1 value</source>
        <translation>1 Wert</translation>
    </message>
    <message>
        <source>%1 values</source>
        <translation>%1 Werte</translation>
    </message>
    <message>
        <source>1 pair</source>
        <translation>1 Paar</translation>
    </message>
    <message>
        <source>%1 pairs</source>
        <translation>%1 Paare</translation>
    </message>
</context>
<context>
    <name>ts::ui::DiffHeatmapPlot</name>
    <message>
        <source>column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>B − A as %1 × %2</source>
        <translation>B − A als %1 × %2</translation>
    </message>
    <message>
        <source>, shown as %1 × %2 cells, each the largest |B − A| it covers</source>
        <translation>, dargestellt als %1 × %2 Zellen, jede das größte |B − A|, das sie abdeckt</translation>
    </message>
    <message>
        <source> · colour scale ±%1</source>
        <translation> · Farbskala ±%1</translation>
    </message>
    <message>
        <source> · %1 NaN/Inf not drawn</source>
        <translation> · %1 NaN/Inf nicht gezeichnet</translation>
    </message>
    <message>
        <source>[%1, %2]: B − A = %3</source>
        <translation>[%1, %2]: B − A = %3</translation>
    </message>
    <message>
        <source>rows %1–%2, columns %3–%4: largest B − A %5</source>
        <translation>Zeilen %1–%2, Spalten %3–%4: größtes B − A %5</translation>
    </message>
</context>
<context>
    <name>ts::ui::DiffHistogramPlot</name>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
</context>
<context>
    <name>ts::ui::DocumentWidget</name>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>Tensoren</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>Raw Header</source>
        <translation>Roher Header</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>Scan</translation>
    </message>
    <message>
        <source>%1 changed on disk. What is shown may no longer match the file.</source>
        <translation>%1 wurde auf der Festplatte geändert. Die Anzeige passt möglicherweise nicht mehr zur Datei.</translation>
    </message>
    <message>
        <source>%1 was removed or renamed on disk.</source>
        <translation>%1 wurde auf der Festplatte entfernt oder umbenannt.</translation>
    </message>
    <message>
        <source>Not restored: %1</source>
        <translation>Nicht wiederhergestellt: %1</translation>
    </message>
    <message>
        <source>Not deleted: %1</source>
        <translation>Nicht gelöscht: %1</translation>
    </message>
    <message>
        <source>%1 is read-only. Replace it anyway? It stays read-only.</source>
        <translation>%1 ist schreibgeschützt. Trotzdem ersetzen? Die Datei bleibt schreibgeschützt.</translation>
    </message>
    <message>
        <source>%1 has %2 hard links. Save it as a new file under this name only? The other names keep the old contents.</source>
        <translation>%1 hat %2 harte Links. Nur unter diesem Namen als neue Datei speichern? Die anderen Namen behalten den alten Inhalt.</translation>
    </message>
    <message>
        <source>Replace File?</source>
        <translation>Datei ersetzen?</translation>
    </message>
    <message>
        <source>%1 changed on disk since it was opened, so your edits were not saved over it. Reload to see the file as it is now (your edits are discarded), or use Save As to keep them in another file.</source>
        <translation>%1 wurde seit dem Öffnen auf der Festplatte geändert, deshalb wurden Ihre Änderungen nicht darüber gespeichert. Laden Sie neu, um die Datei im jetzigen Zustand zu sehen (Ihre Änderungen werden verworfen), oder behalten Sie sie mit „Speichern unter“ in einer anderen Datei.</translation>
    </message>
    <message>
        <source>Saved %1 in place (%2 bytes written).</source>
        <translation>%1 an Ort und Stelle gespeichert (%2 Bytes geschrieben).</translation>
    </message>
    <message>
        <source>Saved %1 (full rewrite: %2).</source>
        <translation>%1 gespeichert (vollständig neu geschrieben: %2).</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Reading the header of %1 from %2…</source>
        <translation>Header von %1 wird von %2 gelesen…</translation>
    </message>
    <message>
        <source>%1 received</source>
        <translation>%1 empfangen</translation>
    </message>
    <message>
        <source>%1 changed on the server while it was being read. Reload to read the new file.</source>
        <translation>%1 wurde auf dem Server geändert, während die Datei gelesen wurde. Laden Sie neu, um die neue Datei zu lesen.</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>%1 changed on the server (%2). Reload to read the new file.</source>
        <translation>%1 wurde auf dem Server geändert (%2). Laden Sie neu, um die neue Datei zu lesen.</translation>
    </message>
    <message>
        <source>%1 changed on disk (%2). Reload to see the file as it is now.</source>
        <translation>%1 wurde auf der Festplatte geändert (%2). Laden Sie neu, um die Datei im jetzigen Zustand zu sehen.</translation>
    </message>
</context>
<context>
    <name>ts::ui::DtypeChart</name>
    <message>
        <source>Parameters (left axis)</source>
        <translation>Parameter (linke Achse)</translation>
    </message>
    <message>
        <source>Bytes (right axis)</source>
        <translation>Bytes (rechte Achse)</translation>
    </message>
    <message>
        <source>This file holds no tensors.</source>
        <translation>Diese Datei enthält keine Tensoren.</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
</context>
<context>
    <name>ts::ui::ErrorView</name>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>This folder cannot be opened</source>
        <translation>Dieser Ordner kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>This file cannot be opened</source>
        <translation>Diese Datei kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Error code: %1</source>
        <translation>Fehlercode: %1</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>Datei: %1</translation>
    </message>
    <message>
        <source>Tensor: %1</source>
        <translation>Tensor: %1</translation>
    </message>
    <message>
        <source>Byte offset: %1</source>
        <translation>Byte-Offset: %1</translation>
    </message>
    <message>
        <source>No header text could be read from the file.</source>
        <translation>Aus der Datei konnte kein Header-Text gelesen werden.</translation>
    </message>
    <message>
        <source>1 byte</source>
        <translation>1 Byte</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>What the header says (%1 read, re-indented; too large to show in full):</source>
        <translation>Was der Header sagt (%1 gelesen, neu eingerückt; zu groß, um vollständig angezeigt zu werden):</translation>
    </message>
    <message>
        <source>What the header says (%1 read, re-indented):</source>
        <translation>Was der Header sagt (%1 gelesen, neu eingerückt):</translation>
    </message>
    <message>
        <source>Access Token…</source>
        <translation>Zugriffstoken…</translation>
    </message>
    <message>
        <source>This URL cannot be opened</source>
        <translation>Diese URL kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>This folder holds %1 models</source>
        <translation>Dieser Ordner enthält %1 Modelle</translation>
    </message>
    <message>
        <source>URL: %1</source>
        <translation>URL: %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::FolderModelPicker</name>
    <message>
        <source>shard index</source>
        <translation>Shard-Index</translation>
    </message>
    <message>
        <source>shards without an index</source>
        <translation>Shards ohne Index</translation>
    </message>
    <message>
        <source>shards without an index, %1 missing</source>
        <translation>Shards ohne Index, %1 fehlen</translation>
    </message>
    <message>
        <source>single file</source>
        <translation>einzelne Datei</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>%1  ·  %2</source>
        <translation>%1  ·  %2</translation>
    </message>
    <message>
        <source>%1 files</source>
        <translation>%1 Dateien</translation>
    </message>
    <message>
        <source>Missing: %1</source>
        <translation>Fehlt: %1</translation>
    </message>
    <message>
        <source>Pick the one to open; each opens in its own tab:</source>
        <translation>Wählen Sie das zu öffnende Modell; jedes öffnet sich in einem eigenen Tab:</translation>
    </message>
</context>
<context>
    <name>ts::ui::HeatmapPanel</name>
    <message>
        <source>Max |x| pooling</source>
        <translation>Max-|x|-Pooling</translation>
    </message>
    <message>
        <source>Mean pooling</source>
        <translation>Mittelwert-Pooling</translation>
    </message>
    <message>
        <source>column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>, shown as %1 × %2 cells (%3)</source>
        <translation>, dargestellt als %1 × %2 Zellen (%3)</translation>
    </message>
    <message>
        <source>[%1, %2] = %3</source>
        <translation>[%1, %2] = %3</translation>
    </message>
    <message>
        <source>rows %1–%2, columns %3–%4: %5</source>
        <translation>Zeilen %1–%2, Spalten %3–%4: %5</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>−Inf</source>
        <translation>−Inf</translation>
    </message>
    <message>
        <source>outlier</source>
        <translation>Ausreißer</translation>
    </message>
    <message>
        <source>How cells are merged when the matrix is larger than the image. Max |x| keeps a single outlier visible; mean shows the broad structure. NaN, Inf and outliers are marked either way.</source>
        <translation>Wie Zellen zusammengefasst werden, wenn die Matrix größer als das Bild ist. Max |x| hält einen einzelnen Ausreißer sichtbar; der Mittelwert zeigt die grobe Struktur. NaN, Inf und Ausreißer werden in beiden Fällen markiert.</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Linear</translation>
    </message>
    <message>
        <source>Log |x|</source>
        <translation>Log |x|</translation>
    </message>
    <message>
        <source>index</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>, zoomed to rows %1–%2, columns %3–%4 (double-click: all)</source>
        <translation>, vergrößert auf Zeilen %1–%2, Spalten %3–%4 (Doppelklick: alles)</translation>
    </message>
    <message>
        <source>, every element shown</source>
        <translation>, jedes Element angezeigt</translation>
    </message>
    <message>
        <source>log₁₀ |x|</source>
        <translation>log₁₀ |x|</translation>
    </message>
    <message>
        <source>1 outlier cell</source>
        <translation>1 Ausreißer-Zelle</translation>
    </message>
    <message>
        <source>%1 outlier cells</source>
        <translation>%1 Ausreißer-Zellen</translation>
    </message>
    <message>
        <source>No NaN, Inf or outlier in %1.</source>
        <translation>Kein NaN, Inf oder Ausreißer in %1.</translation>
    </message>
    <message>
        <source>this plane</source>
        <translation>dieser Ebene</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>diesem Bereich</translation>
    </message>
    <message>
        <source> · holds %1</source>
        <translation> · enthält %1</translation>
    </message>
    <message>
        <source>no finite value</source>
        <translation>kein endlicher Wert</translation>
    </message>
    <message>
        <source> (min %1, max %2)</source>
        <translation> (Min. %1, Max. %2)</translation>
    </message>
    <message>
        <source>Clip to 1–99%</source>
        <translation>Auf 1–99 % begrenzen</translation>
    </message>
    <message>
        <source>Colour scale. Clipped to the 1st–99th percentile of the cells, one outlier cannot wash the rest out (it keeps its marker); linear spans every value; log |x| shows magnitudes over many decades.</source>
        <translation>Farbskala. Auf das 1.–99. Perzentil der Zellen begrenzt, kann ein einzelner Ausreißer den Rest nicht überstrahlen (er behält seine Markierung); linear umfasst jeden Wert; log |x| zeigt Beträge über viele Größenordnungen.</translation>
    </message>
    <message>
        <source>clipped 1–99%</source>
        <translation>begrenzt auf 1–99 %</translation>
    </message>
</context>
<context>
    <name>ts::ui::HistogramPanel</name>
    <message>
        <source>Log count</source>
        <translation>Log. Anzahl</translation>
    </message>
    <message>
        <source>%1 bins</source>
        <translation>%1 Klassen</translation>
    </message>
    <message>
        <source>Value x</source>
        <translation>Wert x</translation>
    </message>
    <message>
        <source>log₁₀|x|</source>
        <translation>log₁₀|x|</translation>
    </message>
    <message>
        <source>log10 of the magnitude shows weights that span decades; zeros are counted apart.</source>
        <translation>log10 des Betrags zeigt Gewichte, die sich über Größenordnungen erstrecken; Nullen werden gesondert gezählt.</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>Histogramm</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>No histogram for this dtype.</source>
        <translation>Kein Histogramm für diesen Datentyp.</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>[%1, %2%3: %4</source>
        <translation>[%1, %2%3: %4</translation>
    </message>
    <message>
        <source>Export Histogram</source>
        <translation>Histogramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>%1 finite in %2 bins</source>
        <translation>%1 endliche in %2 Klassen</translation>
    </message>
    <message>
        <source>zeros %1 (off the log axis)</source>
        <translation>Nullen %1 (außerhalb der log. Achse)</translation>
    </message>
    <message>
        <source>zeros %1</source>
        <translation>Nullen %1</translation>
    </message>
    <message>
        <source>no NaN or Inf</source>
        <translation>kein NaN oder Inf</translation>
    </message>
    <message>
        <source>NaN %1</source>
        <translation>NaN %1</translation>
    </message>
    <message>
        <source>+Inf %1</source>
        <translation>+Inf %1</translation>
    </message>
    <message>
        <source>−Inf %1</source>
        <translation>−Inf %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::JournalBanner</name>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Keep Current</source>
        <translation>Aktuellen Stand behalten</translation>
    </message>
    <message>
        <source>Delete Journal</source>
        <translation>Journal löschen</translation>
    </message>
    <message>
        <source>Write the header from before the interrupted save back into the file</source>
        <translation>Den Header von vor dem unterbrochenen Speichern in die Datei zurückschreiben</translation>
    </message>
    <message>
        <source>Leave the file and the journal as they are for now</source>
        <translation>Datei und Journal vorerst so lassen, wie sie sind</translation>
    </message>
    <message>
        <source>Delete the journal and keep the file as it is now</source>
        <translation>Das Journal löschen und die Datei im jetzigen Zustand behalten</translation>
    </message>
    <message>
        <source>A metadata save of %1 was interrupted.</source>
        <translation>Ein Speichern der Metadaten von %1 wurde unterbrochen.</translation>
    </message>
    <message>
        <source>A metadata save of %1 stopped before it changed the file.</source>
        <translation>Ein Speichern der Metadaten von %1 wurde beendet, bevor es die Datei geändert hat.</translation>
    </message>
    <message>
        <source>A save journal beside %1 does not match the file and will never be applied.</source>
        <translation>Ein Speicher-Journal neben %1 passt nicht zur Datei und wird niemals angewandt.</translation>
    </message>
</context>
<context>
    <name>ts::ui::JsonEditDialog</name>
    <message>
        <source>Check as JSON</source>
        <translation>Als JSON prüfen</translation>
    </message>
    <message>
        <source>Edit “%1”</source>
        <translation>„%1“ bearbeiten</translation>
    </message>
    <message>
        <source>Not valid JSON: %1 at line %2, column %3.</source>
        <translation>Kein gültiges JSON: %1 in Zeile %2, Spalte %3.</translation>
    </message>
    <message>
        <source>Valid JSON.</source>
        <translation>Gültiges JSON.</translation>
    </message>
</context>
<context>
    <name>ts::ui::LayerChartView</name>
    <message>
        <source>Std</source>
        <translation>Std.-Abw.</translation>
    </message>
    <message>
        <source>Abs max</source>
        <translation>Max. Betrag</translation>
    </message>
    <message>
        <source>L2 norm</source>
        <translation>L2-Norm</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Per-layer:</source>
        <translation>Pro Schicht:</translation>
    </message>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>No repeated numbered blocks (such as layers.N.) in this model, or no scan yet.</source>
        <translation>Keine wiederholten nummerierten Blöcke (wie layers.N.) in diesem Modell, oder noch kein Scan.</translation>
    </message>
    <message>
        <source>%1 (%2 blocks)</source>
        <translation>%1 (%2 Blöcke)</translation>
    </message>
    <message>
        <source>NaN count</source>
        <translation>Anzahl NaN</translation>
    </message>
    <message>
        <source>Inf count</source>
        <translation>Anzahl Inf</translation>
    </message>
    <message>
        <source>The statistic compared across blocks, in the overview and the family chart</source>
        <translation>Die über die Blöcke verglichene Kennzahl, in der Übersicht und im Familiendiagramm</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>One family</source>
        <translation>Eine Familie</translation>
    </message>
    <message>
        <source>Red: the block&apos;s tensor has %1 values; white: it has none. Grey: no such tensor in that block.</source>
        <translation>Rot: der Tensor des Blocks hat %1-Werte; weiß: er hat keine. Grau: kein solcher Tensor in diesem Block.</translation>
    </message>
    <message>
        <source>Nothing to compare: no tensor here repeats in %1 or more blocks with the same shape and dtype and at least %2 values, so every cell is grey. Hover a cell for its %3, or chart a family block by block under One family.</source>
        <translation>Nichts zu vergleichen: kein Tensor kommt hier in %1 oder mehr Blöcken mit gleicher Form, gleichem Datentyp und mindestens %2 Werten vor, daher ist jede Zelle grau. Zeigen Sie auf eine Zelle für ihren Wert (%3), oder zeichnen Sie unter „Eine Familie“ eine Familie Block für Block.</translation>
    </message>
    <message>
        <source>Each cell: a block&apos;s %1 against the same tensor in the other blocks, white at their median, red above, blue below; a square marks an outlier the scan lists.</source>
        <translation>Jede Zelle: %1 eines Blocks gegenüber demselben Tensor in den anderen Blöcken, weiß bei deren Median, rot darüber, blau darunter; ein Quadrat markiert einen Ausreißer, den der Scan aufführt.</translation>
    </message>
    <message>
        <source>Grey: no such tensor in that block, or one not compared, being in fewer than %1 blocks with the same shape and dtype and at least %2 values (%3 of the %4 tensors).</source>
        <translation>Grau: kein solcher Tensor in diesem Block, oder einer, der nicht verglichen wird, weil er in weniger als %1 Blöcken mit gleicher Form, gleichem Datentyp und mindestens %2 Werten vorkommt (%3 der %4 Tensoren).</translation>
    </message>
    <message>
        <source>Grey: no such tensor in that block.</source>
        <translation>Grau: kein solcher Tensor in diesem Block.</translation>
    </message>
</context>
<context>
    <name>ts::ui::LayerOverviewPlot</name>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>red: has %1</source>
        <translation>rot: hat %1</translation>
    </message>
    <message>
        <source>robust z of %1 vs siblings</source>
        <translation>robustes z von %1</translation>
    </message>
</context>
<context>
    <name>ts::ui::LinePlotPanel</name>
    <message>
        <source>index</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>%1 values in %2 columns, each drawn from its min to its max.</source>
        <translation>%1 Werte in %2 Spalten, jede von ihrem Minimum bis zu ihrem Maximum gezeichnet.</translation>
    </message>
    <message>
        <source>%1 values.</source>
        <translation>%1 Werte.</translation>
    </message>
    <message>
        <source> %1 NaN/Inf not drawn.</source>
        <translation> %1 NaN/Inf nicht gezeichnet.</translation>
    </message>
    <message>
        <source>1 value.</source>
        <translation>1 Wert.</translation>
    </message>
    <message>
        <source>No values: this tensor has no elements.</source>
        <translation>Keine Werte: Dieser Tensor hat keine Elemente.</translation>
    </message>
</context>
<context>
    <name>ts::ui::MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>Tab s&amp;chließen</translation>
    </message>
    <message>
        <source>Con&amp;vert…</source>
        <translation>&amp;Konvertieren…</translation>
    </message>
    <message>
        <source>Change dtypes, select, rename or shard the tensors into a new file.</source>
        <translation>Datentypen ändern, Tensoren auswählen, umbenennen oder auf mehrere Dateien aufteilen und als neue Datei schreiben.</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>&amp;Suchen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Summary</source>
        <translation>&amp;Übersicht</translation>
    </message>
    <message>
        <source>&amp;Tensors</source>
        <translation>&amp;Tensoren</translation>
    </message>
    <message>
        <source>&amp;Metadata</source>
        <translation>&amp;Metadaten</translation>
    </message>
    <message>
        <source>Raw &amp;Header</source>
        <translation>Roher &amp;Header</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>&amp;Nächster Tab</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>&amp;Vorheriger Tab</translation>
    </message>
    <message>
        <source>&amp;Analysis</source>
        <translation>A&amp;nalyse</translation>
    </message>
    <message>
        <source>&amp;Scan Model</source>
        <translation>Modell &amp;scannen</translation>
    </message>
    <message>
        <source>Read every tensor: NaN, Inf, zeros, extremes; findings join the audit list.</source>
        <translation>Jeden Tensor lesen: NaN, Inf, Nullen, Extremwerte; die Funde kommen in die Prüfliste.</translation>
    </message>
    <message>
        <source>Check for &amp;NaN/Inf</source>
        <translation>Auf &amp;NaN/Inf prüfen</translation>
    </message>
    <message>
        <source>Only look for NaN and Inf values, at memory speed: no statistics.</source>
        <translation>Nur nach NaN- und Inf-Werten suchen, so schnell wie der Speicher: keine Statistik.</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>Analyse</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Tensorscope</source>
        <translation>&amp;Über Tensorscope</translation>
    </message>
    <message>
        <source>About Tensorscope</source>
        <translation>Über Tensorscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tensorscope %1&lt;/h3&gt;&lt;p&gt;An inspector for .safetensors model files.&lt;/p&gt;&lt;p&gt;Tensorscope is free software under the GNU General Public License, version 3 or (at your option) any later version (GPL-3.0-or-later). It comes with ABSOLUTELY NO WARRANTY.&lt;/p&gt;&lt;p&gt;It uses QCustomPlot (GPL-3.0) and Qt %2 (GNU LGPL version 3).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tensorscope %1&lt;/h3&gt;&lt;p&gt;Ein Betrachter für .safetensors-Modelldateien.&lt;/p&gt;&lt;p&gt;Tensorscope ist freie Software unter der GNU General Public License, Version 3 oder (nach Ihrer Wahl) jeder späteren Version (GPL-3.0-or-later). Es wird OHNE JEDE GEWÄHRLEISTUNG bereitgestellt.&lt;/p&gt;&lt;p&gt;Es verwendet QCustomPlot (GPL-3.0) und Qt %2 (GNU LGPL Version 3).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>Keine zuletzt geöffneten Dateien</translation>
    </message>
    <message>
        <source>Clear Recent</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>Models (*.safetensors *.safetensors.index.json *.json *.bin *.pt *.pth *.ckpt *.pkl);;Safetensors models (*.safetensors *.safetensors.index.json *.json);;PyTorch checkpoints (*.bin *.pt *.pth *.ckpt *.pkl);;All files (*)</source>
        <translation>Modelle (*.safetensors *.safetensors.index.json *.json *.bin *.pt *.pth *.ckpt *.pkl);;Safetensors-Modelle (*.safetensors *.safetensors.index.json *.json);;PyTorch-Checkpoints (*.bin *.pt *.pth *.ckpt *.pkl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open Sharded Model Folder</source>
        <translation>Ordner eines aufgeteilten Modells öffnen</translation>
    </message>
    <message>
        <source>Tensorscope</source>
        <translation>Tensorscope</translation>
    </message>
    <message>
        <source>Open a model with Ctrl+O or drop one here.</source>
        <translation>Öffnen Sie ein Modell mit Strg+O oder ziehen Sie es hierher.</translation>
    </message>
    <message>
        <source>%1 — Tensorscope</source>
        <translation>%1 — Tensorscope</translation>
    </message>
    <message>
        <source>%1 · %2 tensors · %3 parameters</source>
        <translation>%1 · %2 Tensoren · %3 Parameter</translation>
    </message>
    <message>
        <source>cannot be opened</source>
        <translation>kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>opening…</source>
        <translation>wird geöffnet…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Save Failed</source>
        <translation>Speichern fehlgeschlagen</translation>
    </message>
    <message>
        <source>The metadata could not be saved.</source>
        <translation>Die Metadaten konnten nicht gespeichert werden.</translation>
    </message>
    <message>
        <source>Save Model As</source>
        <translation>Modell speichern unter</translation>
    </message>
    <message>
        <source>Safetensors models (*.safetensors)</source>
        <translation>Safetensors-Modelle (*.safetensors)</translation>
    </message>
    <message>
        <source>%1 is being saved; close it when the save has finished.</source>
        <translation>%1 wird gerade gespeichert; schließen Sie es, wenn das Speichern abgeschlossen ist.</translation>
    </message>
    <message>
        <source>Open &amp;URL…</source>
        <translation>UR&amp;L öffnen…</translation>
    </message>
    <message>
        <source>Open a model on a server by its URL, reading only what is needed.</source>
        <translation>Ein Modell auf einem Server über seine URL öffnen und nur lesen, was gebraucht wird.</translation>
    </message>
    <message>
        <source>E&amp;xport Report…</source>
        <translation>Bericht e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Write an audit report: files and SHA-256, architecture, parameters, findings, metadata.</source>
        <translation>Einen Prüfbericht schreiben: Dateien und SHA-256, Architektur, Parameter, Funde, Metadaten.</translation>
    </message>
    <message>
        <source>S&amp;can</source>
        <translation>&amp;Scan</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Reopen &amp;Tabs at Start</source>
        <translation>&amp;Tabs beim Start wieder öffnen</translation>
    </message>
    <message>
        <source>When Tensorscope starts without files, open the tabs it had when it closed.</source>
        <translation>Wenn Tensorscope ohne Dateien startet, die Tabs öffnen, die beim Beenden offen waren.</translation>
    </message>
    <message>
        <source>T&amp;heme</source>
        <translation>&amp;Design</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>&amp;System</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>The platform&apos;s own style and colours</source>
        <translation>Stil und Farben der Plattform</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataCommands</name>
    <message>
        <source>Edit “%1”</source>
        <translation>„%1“ bearbeiten</translation>
    </message>
    <message>
        <source>Rename “%1”</source>
        <translation>„%1“ umbenennen</translation>
    </message>
    <message>
        <source>Add “%1”</source>
        <translation>„%1“ hinzufügen</translation>
    </message>
    <message>
        <source>Remove “%1”</source>
        <translation>„%1“ entfernen</translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataDiffModel</name>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataModel</name>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>Bedeutung</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 — %2 (%3)</source>
        <translation>%1 — %2 (%3)</translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataView</name>
    <message>
        <source>Copy as JSON</source>
        <translation>Als JSON kopieren</translation>
    </message>
    <message>
        <source>Copy value</source>
        <translation>Wert kopieren</translation>
    </message>
    <message>
        <source>Add Key</source>
        <translation>Schlüssel hinzufügen</translation>
    </message>
    <message>
        <source>Edit Value…</source>
        <translation>Wert bearbeiten…</translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation>Schlüssel entfernen</translation>
    </message>
    <message>
        <source>Select a key to see its value.</source>
        <translation>Wählen Sie einen Schlüssel, um seinen Wert zu sehen.</translation>
    </message>
    <message>
        <source>This file has no metadata.</source>
        <translation>Diese Datei hat keine Metadaten.</translation>
    </message>
    <message>
        <source>Too large to edit here: %1 characters at most</source>
        <translation>Zu groß, um hier bearbeitet zu werden: höchstens %1 Zeichen</translation>
    </message>
    <message>
        <source>%1 (JSON)</source>
        <translation>%1 (JSON)</translation>
    </message>
    <message>
        <source>: %1 characters, too large to show in full; Copy value copies all of it</source>
        <translation>: %1 Zeichen, zu groß für die vollständige Anzeige; „Wert kopieren“ kopiert alles</translation>
    </message>
</context>
<context>
    <name>ts::ui::ModuleShareModel</name>
    <message>
        <source>%1: %2 parameters in %3 tensors</source>
        <translation>%1: %2 Parameter in %3 Tensoren</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>Tensoren</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
</context>
<context>
    <name>ts::ui::OpenUrlDialog</name>
    <message>
        <source>Open URL</source>
        <translation>URL öffnen</translation>
    </message>
    <message>
        <source>The URL of a .safetensors file, or of a sharded model&apos;s model.safetensors.index.json. Only the header is read to open it; tensor bytes are fetched when a view or a scan needs them.</source>
        <translation>Die URL einer .safetensors-Datei oder der model.safetensors.index.json eines aufgeteilten Modells. Zum Öffnen wird nur der Header gelesen; Tensor-Bytes werden geholt, wenn eine Ansicht oder ein Scan sie braucht.</translation>
    </message>
    <message>
        <source>A URL starts with https:// or http://.</source>
        <translation>Eine URL beginnt mit https:// oder http://.</translation>
    </message>
    <message>
        <source>This is not a valid URL.</source>
        <translation>Dies ist keine gültige URL.</translation>
    </message>
    <message>
        <source>This URL names a folder: give the URL of a .safetensors file or of its index.</source>
        <translation>Diese URL bezeichnet einen Ordner: Geben Sie die URL einer .safetensors-Datei oder ihres Index an.</translation>
    </message>
</context>
<context>
    <name>ts::ui::PairDetailPanel</name>
    <message>
        <source>Estimate Rank</source>
        <translation>Rang schätzen</translation>
    </message>
    <message>
        <source>Values of A and B</source>
        <translation>Werte von A und B</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>The numerical rank of B − A by a randomized range finder: a merged LoRA is a low-rank update, a full fine-tune is not, noise has no structure. Reads both tensors a few more times.</source>
        <translation>Der numerische Rang von B − A, bestimmt mit einem randomisierten Range Finder: Ein eingearbeitetes LoRA ist eine Änderung mit niedrigem Rang, ein vollständiges Fine-Tuning nicht, Rauschen hat keine Struktur. Liest beide Tensoren noch einige Male.</translation>
    </message>
    <message>
        <source>Select a changed tensor to see how it changed.</source>
        <translation>Wählen Sie einen geänderten Tensor, um zu sehen, wie er sich geändert hat.</translation>
    </message>
    <message>
        <source>Dtype, shape</source>
        <translation>Datentyp, Form</translation>
    </message>
    <message>
        <source>Max |B − A|</source>
        <translation>Max |B − A|</translation>
    </message>
    <message>
        <source>%1 at %2 (A %3, B %4)</source>
        <translation>%1 bei %2 (A %3, B %4)</translation>
    </message>
    <message>
        <source>Mean |B − A|</source>
        <translation>Mittleres |B − A|</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>Kosinus-Ähnlichkeit</translation>
    </message>
    <message>
        <source>Values changed</source>
        <translation>Geänderte Werte</translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 von %2 (%3 %)</translation>
    </message>
    <message>
        <source>A: %1 NaN, %2 Inf</source>
        <translation>A: %1 NaN, %2 Inf</translation>
    </message>
    <message>
        <source>B: %1 NaN, %2 Inf</source>
        <translation>B: %1 NaN, %2 Inf</translation>
    </message>
    <message>
        <source>%1 appeared, first at %2</source>
        <translation>%1 neu aufgetreten, zuerst bei %2</translation>
    </message>
    <message>
        <source>%1 disappeared, first at %2</source>
        <translation>%1 verschwunden, zuerst bei %2</translation>
    </message>
    <message>
        <source>NaN / Inf</source>
        <translation>NaN / Inf</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Rank 0: no direction stands above the noise floor (its %1 strongest hold %2%).</source>
        <translation>Rang 0: Keine Richtung hebt sich vom Rauschniveau ab (die %1 stärksten enthalten %2 %).</translation>
    </message>
    <message>
        <source> or more</source>
        <translation> oder mehr</translation>
    </message>
    <message>
        <source>Not estimated yet.</source>
        <translation>Noch nicht geschätzt.</translation>
    </message>
    <message>
        <source>Identical: nothing to draw.</source>
        <translation>Identisch: nichts zu zeichnen.</translation>
    </message>
    <message>
        <source>Reading both tensors…</source>
        <translation>Beide Tensoren werden gelesen…</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Estimating the rank…</source>
        <translation>Der Rang wird geschätzt…</translation>
    </message>
    <message>
        <source>Relative L2 ‖B − A‖ / ‖A‖</source>
        <translation>Relatives L2 ‖B − A‖ / ‖A‖</translation>
    </message>
    <message>
        <source>Rank %1%2 of %3 × %4: the top %1 hold %5% of ‖B − A‖²; the next singular value is %6× smaller.</source>
        <translation>Rang %1%2 von %3 × %4: Die obersten %1 enthalten %5 % von ‖B − A‖²; der nächste Singulärwert ist %6× kleiner.</translation>
    </message>
</context>
<context>
    <name>ts::ui::PickleBanner</name>
    <message>
        <source>Show Findings</source>
        <translation>Funde zeigen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <translation>
            <numerusform>%n weiterer</numerusform>
            <numerusform>%n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a TorchScript archive: torch.load would hand it to torch.jit.load, which runs the code it carries. Tensorscope ran nothing; its tensors are shown below.</source>
        <translation>%1 ist ein TorchScript-Archiv: torch.load würde es an torch.jit.load übergeben, das den mitgebrachten Code ausführt. Tensorscope hat nichts ausgeführt; die Tensoren werden unten gezeigt.</translation>
    </message>
    <message>
        <source>%1 would run code if loaded with torch.load: %2. Tensorscope read it without running anything; do not load it in Python.</source>
        <translation>%1 würde beim Laden mit torch.load Code ausführen: %2. Tensorscope hat die Datei gelesen, ohne etwas auszuführen; laden Sie sie nicht in Python.</translation>
    </message>
    <message>
        <source>%1 is built so that torch and other readers (scanners included) may see different things in it; nothing in it was run. The findings say where.</source>
        <translation>%1 ist so gebaut, dass torch und andere Leser (auch Scanner) darin Verschiedenes sehen können; nichts darin wurde ausgeführt. Die Funde sagen, wo.</translation>
    </message>
    <message>
        <source>%1 names globals torch.load(weights_only=True) refuses: %2. A plain torch.load would import and call them; Tensorscope ran none.</source>
        <translation>%1 nennt Globals, die torch.load(weights_only=True) ablehnt: %2. Ein einfaches torch.load würde sie importieren und aufrufen; Tensorscope hat keines ausgeführt.</translation>
    </message>
</context>
<context>
    <name>ts::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source> bytes</source>
        <translation> Bytes</translation>
    </message>
    <message>
        <source>Spaces added to the header when a save rewrites the whole file, so that later metadata edits can be saved in place in milliseconds. 0 writes files byte-identical to the reference safetensors writer.</source>
        <translation>Leerzeichen, die dem Header angefügt werden, wenn ein Speichern die ganze Datei neu schreibt, damit spätere Metadaten-Änderungen in Millisekunden an Ort und Stelle gespeichert werden können. 0 schreibt Dateien byte-identisch zum Referenz-Writer von safetensors.</translation>
    </message>
    <message>
        <source>Header slack:</source>
        <translation>Header-Reserve:</translation>
    </message>
    <message>
        <source>Check NaN/Inf when a model opens</source>
        <translation>Beim Öffnen eines Modells auf NaN/Inf prüfen</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>For models up to:</source>
        <translation>Für Modelle bis:</translation>
    </message>
</context>
<context>
    <name>ts::ui::RawHeaderView</name>
    <message>
        <source>Search the header</source>
        <translation>Im Header suchen</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>No header could be read.</source>
        <translation>Es konnte kein Header gelesen werden.</translation>
    </message>
    <message>
        <source>Header of %1: %2 bytes</source>
        <translation>Header von %1: %2 Bytes</translation>
    </message>
    <message>
        <source>, of which the first %1 are shown</source>
        <translation>, davon werden die ersten %1 angezeigt</translation>
    </message>
    <message>
        <source>; laid out, it is too large to show in full</source>
        <translation>; aufbereitet ist er zu groß für die vollständige Anzeige</translation>
    </message>
    <message>
        <source> (first of %1 shards)</source>
        <translation> (erster von %1 Shards)</translation>
    </message>
    <message>
        <source>. Re-indented for reading; keys and numbers are exactly as in the file.</source>
        <translation>. Zum Lesen neu eingerückt; Schlüssel und Zahlen stehen genau wie in der Datei.</translation>
    </message>
    <message>
        <source> Very long lines are shortened, and nesting deeper than %1 levels is not indented further.</source>
        <translation> Sehr lange Zeilen werden gekürzt, und Verschachtelungen tiefer als %1 Ebenen werden nicht weiter eingerückt.</translation>
    </message>
    <message>
        <source>Wrapped</source>
        <translation>Umbrechen</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>The header is read and laid out when this page is shown.</source>
        <translation>Der Header wird gelesen und aufbereitet, wenn diese Seite angezeigt wird.</translation>
    </message>
    <message>
        <source>Pickle of %1: %2 bytes, disassembled as Python&apos;s pickletools shows it; the numbers on the left are byte offsets in the file. Nothing in it was run.</source>
        <translation>Pickle von %1: %2 Bytes, disassembliert wie von Pythons pickletools; die Zahlen links sind Byte-Offsets in der Datei. Nichts darin wurde ausgeführt.</translation>
    </message>
</context>
<context>
    <name>ts::ui::ReloadBanner</name>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
</context>
<context>
    <name>ts::ui::RemotePreferencesBox</name>
    <message>
        <source>Models on servers</source>
        <translation>Modelle auf Servern</translation>
    </message>
    <message>
        <source>Clear Cache</source>
        <translation>Cache leeren</translation>
    </message>
    <message>
        <source>hf_… (none)</source>
        <translation>hf_… (keins)</translation>
    </message>
    <message>
        <source>The token is sent to these hosts and their subdomains only, never along a redirect to another host. &quot;host:port&quot; limits it to a port, &quot;*&quot; sends it everywhere.</source>
        <translation>Das Token wird nur an diese Hosts und ihre Subdomains gesendet, niemals über eine Weiterleitung an einen anderen Host. „host:port“ beschränkt es auf einen Port, „*“ sendet es überallhin.</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>HF_TOKEN is set in the environment and is used instead of this token.</source>
        <translation>HF_TOKEN ist in der Umgebung gesetzt und wird statt dieses Tokens verwendet.</translation>
    </message>
    <message>
        <source>TENSORSCOPE_TOKEN_HOSTS is set in the environment and decides the hosts.</source>
        <translation>TENSORSCOPE_TOKEN_HOSTS ist in der Umgebung gesetzt und bestimmt die Hosts.</translation>
    </message>
    <message>
        <source>Tensor bytes read from servers are kept in %1, least recently used first out.</source>
        <translation>Von Servern gelesene Tensor-Bytes werden in %1 aufbewahrt; die am längsten ungenutzten fallen zuerst heraus.</translation>
    </message>
    <message>
        <source>Access token:</source>
        <translation>Zugriffstoken:</translation>
    </message>
    <message>
        <source>Send it to:</source>
        <translation>Senden an:</translation>
    </message>
    <message>
        <source>Disk cache:</source>
        <translation>Festplatten-Cache:</translation>
    </message>
    <message>
        <source>%1 used</source>
        <translation>%1 belegt</translation>
    </message>
</context>
<context>
    <name>ts::ui::ReportExportDialog</name>
    <message>
        <source>Replace Files</source>
        <translation>Dateien ersetzen</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 existiert bereits. Ersetzen?</translation>
    </message>
    <message>
        <source>Also write the JSON report beside it</source>
        <translation>Zusätzlich den JSON-Bericht daneben schreiben</translation>
    </message>
    <message>
        <source>Also write the Markdown report beside it</source>
        <translation>Zusätzlich den Markdown-Bericht daneben schreiben</translation>
    </message>
    <message>
        <source>SHA-256 of every file (reads them all)</source>
        <translation>SHA-256 jeder Datei (liest sie alle)</translation>
    </message>
    <message>
        <source>Scan the values: NaN, Inf, outliers, per-layer statistics (reads every tensor)</source>
        <translation>Die Werte scannen: NaN, Inf, Ausreißer, Statistik pro Schicht (liest jeden Tensor)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>Bericht öffnen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Export Report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Report:</source>
        <translation>Bericht:</translation>
    </message>
    <message>
        <source>Include:</source>
        <translation>Einschließen:</translation>
    </message>
    <message>
        <source>A self-contained HTML file (charts inline, nothing fetched when it is opened), or JSON or Markdown: the extension decides.</source>
        <translation>Eine eigenständige HTML-Datei (Diagramme eingebettet, beim Öffnen wird nichts geladen), oder JSON oder Markdown: Die Endung entscheidet.</translation>
    </message>
    <message>
        <source>HTML report (*.html *.htm);;JSON report (*.json);;Markdown report (*.md)</source>
        <translation>HTML-Bericht (*.html *.htm);;JSON-Bericht (*.json);;Markdown-Bericht (*.md)</translation>
    </message>
    <message>
        <source>The report&apos;s name must end in .html, .json or .md.</source>
        <translation>Der Name des Berichts muss auf .html, .json oder .md enden.</translation>
    </message>
    <message>
        <source>choose another name for the report</source>
        <translation>wählen Sie einen anderen Namen für den Bericht</translation>
    </message>
    <message>
        <source>Preparing the report…</source>
        <translation>Der Bericht wird vorbereitet…</translation>
    </message>
    <message>
        <source>Hashing files</source>
        <translation>Dateien werden gehasht</translation>
    </message>
    <message>
        <source>Scanning tensors</source>
        <translation>Tensoren werden gescannt</translation>
    </message>
    <message>
        <source>%1: %2 of %3 (%4/s)</source>
        <translation>%1: %2 von %3 (%4/s)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Wrote %1 (%2) in %3. %4</source>
        <translation>%1 (%2) in %3 geschrieben. %4</translation>
    </message>
    <message>
        <source>The report lists %1.</source>
        <translation>Der Bericht führt %1 auf.</translation>
    </message>
    <message>
        <source>The report lists no error.</source>
        <translation>Der Bericht führt keinen Fehler auf.</translation>
    </message>
    <message>
        <source>Cancelled: nothing was written.</source>
        <translation>Abgebrochen: Es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>The export failed.</source>
        <translation>Der Export ist fehlgeschlagen.</translation>
    </message>
</context>
<context>
    <name>ts::ui::ScanTableModel</name>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>Inf</source>
        <translation>Inf</translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation>Nullen</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min.</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max.</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>Std.-Abw.</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>Funde</translation>
    </message>
    <message>
        <source>Zeros %</source>
        <translation>Nullen %</translation>
    </message>
    <message>
        <source>p1</source>
        <translation>p1</translation>
    </message>
    <message>
        <source>p5</source>
        <translation>p5</translation>
    </message>
    <message>
        <source>p25</source>
        <translation>p25</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Median</translation>
    </message>
    <message>
        <source>p75</source>
        <translation>p75</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
</context>
<context>
    <name>ts::ui::ScanView</name>
    <message>
        <source>Scan Model</source>
        <translation>Modell scannen</translation>
    </message>
    <message>
        <source>Check NaN/Inf</source>
        <translation>Auf NaN/Inf prüfen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Read every tensor and compute its statistics; findings join the summary&apos;s audit list.</source>
        <translation>Jeden Tensor lesen und seine Statistik berechnen; die Funde kommen in die Prüfliste der Übersicht.</translation>
    </message>
    <message>
        <source>Only look for NaN and Inf values: reads the model at memory speed and computes no statistics (Scan Model computes them).</source>
        <translation>Nur nach NaN- und Inf-Werten suchen: liest das Modell so schnell wie der Speicher und berechnet keine Statistik (das macht „Modell scannen“).</translation>
    </message>
    <message>
        <source>Double-click a row to show the tensor.</source>
        <translation>Doppelklick auf eine Zeile zeigt den Tensor.</translation>
    </message>
    <message>
        <source>Not scanned yet.</source>
        <translation>Noch nicht gescannt.</translation>
    </message>
    <message>
        <source>Checking %1 for NaN/Inf…</source>
        <translation>%1 wird auf NaN/Inf geprüft…</translation>
    </message>
    <message>
        <source>Scanning %1…</source>
        <translation>%1 wird gescannt…</translation>
    </message>
    <message>
        <source>%1 of %2 · %3/s · ETA %4</source>
        <translation>%1 von %2 · %3/s · noch %4</translation>
    </message>
    <message>
        <source>Scan failed: %1</source>
        <translation>Scan fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The NaN/Inf check computes no statistics to chart: Scan Model does.</source>
        <translation>Die NaN/Inf-Prüfung berechnet keine Statistik für Diagramme: „Modell scannen“ tut es.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Save the table as CSV, or the whole scan as the JSON of tensorscope-cli scan --json.</source>
        <translation>Die Tabelle als CSV speichern oder den ganzen Scan als JSON von tensorscope-cli scan --json.</translation>
    </message>
    <message>
        <source>Table as CSV…</source>
        <translation>Tabelle als CSV…</translation>
    </message>
    <message>
        <source>Export Scan Table</source>
        <translation>Scan-Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Scan as JSON…</source>
        <translation>Scan als JSON…</translation>
    </message>
    <message>
        <source>Export Scan</source>
        <translation>Scan exportieren</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>NaN/Inf check: %1, %2 in %3 s · %4 (%5)</source>
        <translation>NaN/Inf-Prüfung: %1, %2 in %3 s · %4 (%5)</translation>
    </message>
    <message>
        <source>%1, %2 in %3 s · %4 (%5)</source>
        <translation>%1, %2 in %3 s · %4 (%5)</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 (%3) · %4 (%5) so far; findings across tensors need the whole scan.</source>
        <translation>Abgebrochen nach %1 von %2 (%3) · bisher %4 (%5); Funde über mehrere Tensoren brauchen den ganzen Scan.</translation>
    </message>
</context>
<context>
    <name>ts::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
</context>
<context>
    <name>ts::ui::StartPage</name>
    <message>
        <source>Recent</source>
        <translation>Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Clear Recent</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>Tensorscope</source>
        <translation>Tensorscope</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>Datei öffnen…</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>Ordner öffnen…</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>Files you open appear here.</source>
        <translation>Hier erscheinen die Dateien, die Sie öffnen.</translation>
    </message>
    <message>
        <source>Open a .safetensors file, a sharded model&apos;s folder or its index.json, a PyTorch checkpoint (.bin, .pt, .pth, .ckpt; read without running it), or drop one onto this window; or open one on a server by its URL.</source>
        <translation>Öffnen Sie eine .safetensors-Datei, den Ordner eines aufgeteilten Modells oder seine index.json, einen PyTorch-Checkpoint (.bin, .pt, .pth, .ckpt; gelesen, ohne ihn auszuführen), oder ziehen Sie eine Datei auf dieses Fenster; oder öffnen Sie ein Modell auf einem Server über seine URL.</translation>
    </message>
    <message>
        <source>Open URL…</source>
        <translation>URL öffnen…</translation>
    </message>
</context>
<context>
    <name>ts::ui::StatsPanel</name>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>−Inf</source>
        <translation>−Inf</translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation>Nullen</translation>
    </message>
    <message>
        <source>F16 overflow</source>
        <translation>F16-Überlauf</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min.</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max.</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>Std.-Abw.</translation>
    </message>
    <message>
        <source>Abs max</source>
        <translation>Max. Betrag</translation>
    </message>
    <message>
        <source>L2 norm</source>
        <translation>L2-Norm</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>Could not compute: %1</source>
        <translation>Konnte nicht berechnet werden: %1</translation>
    </message>
    <message>
        <source>Complex tensor: statistics of the magnitude |z|.</source>
        <translation>Komplexer Tensor: Statistik des Betrags |z|.</translation>
    </message>
    <message>
        <source>Zero share</source>
        <translation>Anteil Nullen</translation>
    </message>
    <message>
        <source>p1</source>
        <translation>p1</translation>
    </message>
    <message>
        <source>p5</source>
        <translation>p5</translation>
    </message>
    <message>
        <source>p25</source>
        <translation>p25</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Median</translation>
    </message>
    <message>
        <source>p75</source>
        <translation>p75</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
</context>
<context>
    <name>ts::ui::SummaryView</name>
    <message>
        <source>Remove Leftover Files</source>
        <translation>Überreste entfernen</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>Tensoren</translation>
    </message>
    <message>
        <source>File size</source>
        <translation>Dateigröße</translation>
    </message>
    <message>
        <source>Tensor data</source>
        <translation>Tensordaten</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shards</translation>
    </message>
    <message>
        <source>Metadata keys</source>
        <translation>Metadatenschlüssel</translation>
    </message>
    <message>
        <source>Dtypes</source>
        <translation>Datentypen</translation>
    </message>
    <message>
        <source>Parameters and bytes per dtype</source>
        <translation>Parameter und Bytes pro Datentyp</translation>
    </message>
    <message>
        <source>Top-level modules by parameter share</source>
        <translation>Module der obersten Ebene nach Parameteranteil</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Delete the unfinished temporary files of saves that were killed</source>
        <translation>Die unfertigen temporären Dateien abgebrochener Speichervorgänge löschen</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>%1 bytes, length prefix included</source>
        <translation>%1 Bytes, einschließlich Längenpräfix</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 dtypes</source>
        <translation>%1 Datentypen</translation>
    </message>
    <message>
        <source>Audit (%1)</source>
        <translation>Prüfung (%1)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>Header valid, no warnings: it follows the format exactly.</source>
        <translation>Header gültig, keine Warnungen: Er folgt genau dem Format.</translation>
    </message>
    <message>
        <source>Save the audit list as CSV, or as the JSON of the command line&apos;s findings.</source>
        <translation>Die Prüfliste als CSV speichern oder als JSON der Funde der Kommandozeile.</translation>
    </message>
    <message>
        <source>Audit List as CSV…</source>
        <translation>Prüfliste als CSV…</translation>
    </message>
    <message>
        <source>Export Audit List</source>
        <translation>Prüfliste exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Audit List as JSON…</source>
        <translation>Prüfliste als JSON…</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>%1 elements: every element of every tensor, scalars included</source>
        <translation>%1 Elemente: jedes Element jedes Tensors, Skalare eingeschlossen</translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorBrowser</name>
    <message>
        <source>Filter tensors (Ctrl+F)</source>
        <translation>Tensoren filtern (Strg+F)</translation>
    </message>
    <message>
        <source>Substring</source>
        <translation>Teilzeichenkette</translation>
    </message>
    <message>
        <source>Glob</source>
        <translation>Glob</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>Regex</translation>
    </message>
    <message>
        <source>Substring: anywhere in the name. Glob: whole name, * ? [abc]. Regex: Perl syntax. All case-insensitive.</source>
        <translation>Teilzeichenkette: irgendwo im Namen. Glob: ganzer Name, * ? [abc]. Regex: Perl-Syntax. Groß-/Kleinschreibung wird überall ignoriert.</translation>
    </message>
    <message>
        <source>Show only tensors of one dtype</source>
        <translation>Nur Tensoren eines Datentyps zeigen</translation>
    </message>
    <message>
        <source>Copy Name</source>
        <translation>Namen kopieren</translation>
    </message>
    <message>
        <source>All dtypes</source>
        <translation>Alle Datentypen</translation>
    </message>
    <message>
        <source>%1 tensors</source>
        <translation>%1 Tensoren</translation>
    </message>
    <message>
        <source>Invalid pattern: %1</source>
        <translation>Ungültiges Muster: %1</translation>
    </message>
    <message>
        <source>%1 of %2 tensors match</source>
        <translation>%1 von %2 Tensoren passen</translation>
    </message>
    <message>
        <source>Copy Shape</source>
        <translation>Form kopieren</translation>
    </message>
    <message>
        <source>Export Tensor…</source>
        <translation>Tensor exportieren…</translation>
    </message>
    <message>
        <source>Expand All</source>
        <translation>Alle aufklappen</translation>
    </message>
    <message>
        <source>Collapse All</source>
        <translation>Alle zuklappen</translation>
    </message>
    <message>
        <source>Filtering %1 of %2 names…</source>
        <translation>%1 von %2 Namen werden gefiltert…</translation>
    </message>
    <message>
        <source>%1 of 1 tensor matches</source>
        <translation>%1 von 1 Tensor passt</translation>
    </message>
    <message>
        <source>1 tensor</source>
        <translation>1 Tensor</translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorDetailsView</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Byte range</source>
        <translation>Byte-Bereich</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Select a tensor to see its details.</source>
        <translation>Wählen Sie einen Tensor, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>%1 to %2 in the file (data offsets [%3, %4])</source>
        <translation>%1 bis %2 in der Datei (data_offsets [%3, %4])</translation>
    </message>
    <message>
        <source>Absolute byte offsets; the header&apos;s data_offsets are relative to the end of the header.</source>
        <translation>Absolute Byte-Offsets; die data_offsets des Headers beziehen sich auf das Ende des Headers.</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>group of %1 tensors</source>
        <translation>Gruppe von %1 Tensoren</translation>
    </message>
    <message>
        <source>group of 1 tensor</source>
        <translation>Gruppe von 1 Tensor</translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorExport</name>
    <message>
        <source>Export Tensor</source>
        <translation>Tensor exportieren</translation>
    </message>
    <message>
        <source>NumPy array (*.npy);;CSV, 1-D and 2-D only (*.csv)</source>
        <translation>NumPy-Array (*.npy);;CSV, nur 1-D und 2-D (*.csv)</translation>
    </message>
    <message>
        <source>Tensor Exported</source>
        <translation>Tensor exportiert</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 was written to %2.</source>
        <translation>%1 wurde nach %2 geschrieben.</translation>
    </message>
    <message>
        <source>%1 could not be exported.</source>
        <translation>%1 konnte nicht exportiert werden.</translation>
    </message>
    <message>
        <source>choose a .npy or .csv file name</source>
        <translation>wählen Sie einen Dateinamen auf .npy oder .csv</translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorTreeModel</name>
    <message>
        <source>mixed</source>
        <translation>gemischt</translation>
    </message>
    <message>
        <source>1 tensor</source>
        <translation>1 Tensor</translation>
    </message>
    <message>
        <source>%1 tensors</source>
        <translation>%1 Tensoren</translation>
    </message>
    <message>
        <source>%1: %2 tensors, %3 parameters</source>
        <translation>%1: %2 Tensoren, %3 Parameter</translation>
    </message>
    <message>
        <source>%1 dimensions; the middle ones are not listed</source>
        <translation>%1 Dimensionen; die mittleren sind nicht aufgeführt</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 Parameter</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>bytes %1 to %2 of the file</source>
        <translation>Bytes %1 bis %2 der Datei</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>Offset</translation>
    </message>
    <message>
        <source>Entries %1 to %2 of the %3 in %4: a group this large is shown %5 at a time</source>
        <translation>Einträge %1 bis %2 der %3 in %4: Eine so große Gruppe wird in Schritten von %5 angezeigt</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>dem Modell</translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorVisualsPanel</name>
    <message>
        <source>Heatmap</source>
        <translation>Heatmap</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Linie</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Werte</translation>
    </message>
</context>
<context>
    <name>ts::ui::TransferStatus</name>
    <message>
        <source>↓ %1 from %2</source>
        <translation>↓ %1 von %2</translation>
    </message>
    <message>
        <source> · %1 from the cache</source>
        <translation> · %1 aus dem Cache</translation>
    </message>
    <message>
        <source>Bytes this model&apos;s views and scans brought from the server, and from the disk cache.</source>
        <translation>Bytes, die die Ansichten und Scans dieses Modells vom Server und aus dem Festplatten-Cache geholt haben.</translation>
    </message>
</context>
<context>
    <name>ts::ui::UnsavedChangesPrompt</name>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The metadata of %1 has been edited. Save the changes?</source>
        <translation>Die Metadaten von %1 wurden bearbeitet. Änderungen speichern?</translation>
    </message>
    <message>
        <source>Discarded edits cannot be recovered.</source>
        <translation>Verworfene Änderungen können nicht wiederhergestellt werden.</translation>
    </message>
    <message>
        <source>Reload and Discard Edits?</source>
        <translation>Neu laden und Änderungen verwerfen?</translation>
    </message>
    <message>
        <source>Reloading shows %1 as it is on disk: your unsaved metadata edits will be lost.</source>
        <translation>Neu laden zeigt %1 so, wie es auf der Festplatte ist: Ihre ungespeicherten Metadaten-Änderungen gehen verloren.</translation>
    </message>
    <message>
        <source>Discard and Reload</source>
        <translation>Verwerfen und neu laden</translation>
    </message>
</context>
<context>
    <name>ts::ui::ValueGridModel</name>
    <message>
        <source>unreadable</source>
        <translation>nicht lesbar</translation>
    </message>
</context>
<context>
    <name>ts::ui::ValueGridPanel</name>
    <message>
        <source>Go to row, column</source>
        <translation>Gehe zu Zeile, Spalte</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>No cell %1 in this plane.</source>
        <translation>Keine Zelle %1 in dieser Ebene.</translation>
    </message>
    <message>
        <source>%1 × %2 values of %3, decoded as they scroll into view.</source>
        <translation>%1 × %2 Werte von %3, dekodiert, sobald sie ins Bild scrollen.</translation>
    </message>
</context>
<context>
    <name>ts::ui::ValuesVerdict</name>
    <message>
        <source>1 tensor %1</source>
        <translation>1 Tensor %1</translation>
    </message>
    <message>
        <source>Check NaN/Inf</source>
        <translation>Auf NaN/Inf prüfen</translation>
    </message>
    <message>
        <source>Scan Values</source>
        <translation>Werte scannen</translation>
    </message>
    <message>
        <source>Look for NaN and infinite values in every tensor, at memory speed</source>
        <translation>In jedem Tensor nach NaN und unendlichen Werten suchen, so schnell wie der Speicher</translation>
    </message>
    <message>
        <source>Full statistics of every tensor: NaN/Inf, all-zero tensors, outliers, odd layers, duplicates</source>
        <translation>Vollständige Statistik jedes Tensors: NaN/Inf, Tensoren aus lauter Nullen, Ausreißer, auffällige Schichten, Duplikate</translation>
    </message>
    <message>
        <source>Values not checked yet: a valid header says nothing about NaN or Inf in the data.</source>
        <translation>Werte noch nicht geprüft: Ein gültiger Header sagt nichts über NaN oder Inf in den Daten.</translation>
    </message>
    <message>
        <source>Checking the values for NaN and Inf…</source>
        <translation>Die Werte werden auf NaN und Inf geprüft…</translation>
    </message>
    <message>
        <source>Scanning the values…</source>
        <translation>Die Werte werden gescannt…</translation>
    </message>
    <message>
        <source>The value check did not finish: not every value was checked.</source>
        <translation>Die Werteprüfung wurde nicht abgeschlossen: Nicht jeder Wert wurde geprüft.</translation>
    </message>
    <message>
        <source>The NaN/Inf check</source>
        <translation>Die NaN/Inf-Prüfung</translation>
    </message>
    <message>
        <source>The scan</source>
        <translation>Der Scan</translation>
    </message>
    <message>
        <source>no NaN or Inf in those</source>
        <translation>darunter kein NaN oder Inf</translation>
    </message>
    <message>
        <source>with NaN or Inf</source>
        <translation>mit NaN oder Inf</translation>
    </message>
    <message>
        <source>%1 was cancelled after %2 of %3 tensors: %4 (see the audit list); not every value was checked.</source>
        <translation>%1 wurde nach %2 von %3 Tensoren abgebrochen: %4 (siehe Prüfliste); nicht jeder Wert wurde geprüft.</translation>
    </message>
    <message>
        <source>NaN/Inf check: no NaN or Inf in any tensor. Scan Values looks for the other anomalies.</source>
        <translation>NaN/Inf-Prüfung: kein NaN oder Inf in irgendeinem Tensor. „Werte scannen“ sucht nach den übrigen Anomalien.</translation>
    </message>
    <message>
        <source>NaN/Inf check: %1 (see the audit list).</source>
        <translation>NaN/Inf-Prüfung: %1 (siehe Prüfliste).</translation>
    </message>
    <message>
        <source>Values scanned: no NaN, Inf or other anomaly in any tensor.</source>
        <translation>Werte gescannt: kein NaN, Inf oder andere Anomalie in irgendeinem Tensor.</translation>
    </message>
    <message>
        <source>with other errors</source>
        <translation>mit anderen Fehlern</translation>
    </message>
    <message>
        <source>with warnings</source>
        <translation>mit Warnungen</translation>
    </message>
    <message>
        <source>Values scanned: %1 (see the audit list).</source>
        <translation>Werte gescannt: %1 (siehe Prüfliste).</translation>
    </message>
</context>
<context>
    <name>ts::ui::ValuesVerdict::ValuesVerdict</name>
    <message>
        <source>%1 tensors %2</source>
        <translation>%1 Tensoren %2</translation>
    </message>
</context>
</TS>
