<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::AuditModel</name>
    <message>
        <source>header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Double-click to show the tensor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::AxisPicker</name>
    <message>
        <source>Rows:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>axis %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1: axes of length 1 are not listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>index on axis %1:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ConvertDialog</name>
    <message>
        <source>&amp;Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>globs, e.g. model.layers.*  (empty: every tensor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>globs, e.g. *.bias lm_head.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one REGEX=REPLACEMENT per line, applied in order, e.g. ^model\.=</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one GLOB=DTYPE per line, the last match wins, e.g. *norm*=F32 (overrides the dtype above)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one KEY=VALUE per line, e.g. format=pt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one key per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: one file; e.g. 2GB or 500MB for Hugging Face shards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Floating tensors to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-tensor dtype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exclude:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set metadata:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shard size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview to see the result and what the conversion does to the values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a dtype the converter can write.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-tensor dtypes are GLOB=DTYPE, one per line, with DTYPE one of F32, F16, BF16, F64, F8_E4M3, F8_E5M2; &quot;%1&quot; is not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename rules are REGEX=REPLACEMENT, one per line; &quot;%1&quot; is not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename rule &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shard size &quot;%1&quot; is not a size such as 500MB, 2GB or 1GiB.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metadata to set is KEY=VALUE, one per line; &quot;%1&quot; is not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking values…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an output file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists. Replace it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tensors, %2 → %3; %4 overflowed, %5 underflowed to zero, %6 NaN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: %1 values are out of range of their new dtype and become Inf (or ᑈ in F8_E4M3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversion cancelled; nothing was written to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1 files to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The options changed: preview again before converting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder for the Shards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Safetensors (*.safetensors)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ConvertPreviewModel</name>
    <message>
        <source>from &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from &quot;%1&quot;; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renamed from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Underflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::DocumentWidget</name>
    <message>
        <source>Opening %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw Header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed on disk. What is shown may no longer match the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was removed or renamed on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not restored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not deleted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is read-only. Replace it anyway? It stays read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has %2 hard links. Save it as a new file under this name only? The other names keep the old contents.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace File?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed on disk since it was opened, so your edits were not saved over it. Reload to see the file as it is now (your edits are discarded), or use Save As to keep them in another file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1 in place (%2 bytes written).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1 (full rewrite: %2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::DtypeChart</name>
    <message>
        <source>Parameters (left axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes (right axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file holds no tensors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ErrorView</name>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This folder cannot be opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file cannot be opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error code: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Byte offset: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No header text could be read from the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 byte</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the header says (%1 read, re-indented; too large to show in full):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the header says (%1 read, re-indented):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::HeatmapPanel</name>
    <message>
        <source>Max |x| pooling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean pooling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How cells are merged when the matrix is larger than the image. Max |x| keeps a single outlier visible; mean shows the broad structure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, shown as %1 × %2 cells (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · colour scale ±%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 NaN/Inf not drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[%1, %2] = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows %1–%2, columns %3–%4: %5</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::HistogramPanel</name>
    <message>
        <source>Log count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log₁₀|x|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log10 of the magnitude shows weights that span decades; zeros are counted apart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 finite in %2 bins · zeros %3 · NaN %4 · +Inf %5 · −Inf %6%7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (zeros off the log axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No histogram for this dtype.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[%1, %2%3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Histogram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::JournalBanner</name>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep Current</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete Journal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the header from before the interrupted save back into the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the file and the journal as they are for now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the journal and keep the file as it is now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A metadata save of %1 was interrupted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A metadata save of %1 stopped before it changed the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A save journal beside %1 does not match the file and will never be applied.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::JsonEditDialog</name>
    <message>
        <source>Check as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not valid JSON: %1 at line %2, column %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid JSON.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::LayerChartView</name>
    <message>
        <source>Std</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Abs max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L2 norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-layer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No repeated numbered blocks (such as layers.N.) in this model, or no scan yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 blocks)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::LinePlotPanel</name>
    <message>
        <source>index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 values in %2 columns, each drawn from its min to its max.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> %1 NaN/Inf not drawn.</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model with Ctrl+O or drop one here.</source>
        <translation>Öffnen Sie ein Modell mit Strg+O oder ziehen Sie es hierher.</translation>
    </message>
    <message>
        <source>%1 — Tensorscope</source>
        <translation type="unfinished"></translation>
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
</context>
<context>
    <name>ts::ui::MetadataCommands</name>
    <message>
        <source>Edit “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove “%1”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataModel</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::MetadataView</name>
    <message>
        <source>Copy as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit Value…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a key to see its value.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file has no metadata.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too large to edit here: %1 characters at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: %1 characters, too large to show in full; Copy value copies all of it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ModuleShareModel</name>
    <message>
        <source>%1: %2 parameters in %3 tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spaces added to the header when a save rewrites the whole file, so that later metadata edits can be saved in place in milliseconds. 0 writes files byte-identical to the reference safetensors writer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header slack:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::RawHeaderView</name>
    <message>
        <source>Search the header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No header could be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header of %1: %2 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, of which the first %1 are shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; laid out, it is too large to show in full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (first of %1 shards)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>. Re-indented for reading; keys and numbers are exactly as in the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Very long lines are shortened, and nesting deeper than %1 levels is not indented further.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrapped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ReloadBanner</name>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ScanTableModel</name>
    <message>
        <source>Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Std</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ScanView</name>
    <message>
        <source>Scan Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check NaN/Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read every tensor and compute its statistics; findings join the summary&apos;s audit list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only look for NaN and Inf values: reads the model at memory speed and computes no statistics (Scan Model computes them).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a row to show the tensor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not scanned yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking %1 for NaN/Inf…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanning %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 · %3/s · ETA %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN/Inf check: %1 tensors, %2 in %3 s · %4 findings (%5 errors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tensors, %2 in %3 s · %4 findings (%5 errors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The NaN/Inf check computes no statistics to chart: Scan Model does.</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a .safetensors file, a sharded model&apos;s folder or its index.json, a PyTorch checkpoint (.bin, .pt, .pth, .ckpt; read without running it), or drop one onto this window.</source>
        <translation>Öffnen Sie eine .safetensors-Datei, den Ordner eines aufgeteilten Modells oder dessen index.json, einen PyTorch-Checkpoint (.bin, .pt, .pth, .ckpt; gelesen, ohne ihn auszuführen), oder ziehen Sie sie auf dieses Fenster.</translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files you open appear here.</source>
        <translation>Hier erscheinen die Dateien, die Sie öffnen.</translation>
    </message>
</context>
<context>
    <name>ts::ui::StatsPanel</name>
    <message>
        <source>Statistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>−Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F16 overflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Std</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Abs max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L2 norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not compute: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Complex tensor: statistics of the magnitude |z|.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::SummaryView</name>
    <message>
        <source>Remove Leftover Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metadata keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters and bytes per dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-level modules by parameter share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No warnings: the header follows the format exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the unfinished temporary files of saves that were killed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes, length prefix included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorBrowser</name>
    <message>
        <source>Filter tensors (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Substring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Glob</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regex</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Substring: anywhere in the name. Glob: whole name, * ? [abc]. Regex: Perl syntax. All case-insensitive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only tensors of one dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All dtypes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid pattern: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tensors match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Tensor…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expand All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapse All</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorDetailsView</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Byte range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a tensor to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to %2 in the file (data offsets [%3, %4])</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute byte offsets; the header&apos;s data_offsets are relative to the end of the header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group of %1 tensors</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorExport</name>
    <message>
        <source>%1: choose a .npy or .csv file name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy array (*.npy);;CSV, 1-D and 2-D only (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor Exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was written to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be exported.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorTreeModel</name>
    <message>
        <source>mixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 tensors, %3 parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 dimensions; the middle ones are not listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes %1 to %2 of the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offset</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::TensorVisualsPanel</name>
    <message>
        <source>Heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::UnsavedChangesPrompt</name>
    <message>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The metadata of %1 has been edited. Save the changes?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded edits cannot be recovered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload and Discard Edits?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reloading shows %1 as it is on disk: your unsaved metadata edits will be lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard and Reload</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ValueGridModel</name>
    <message>
        <source>unreadable</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ts::ui::ValueGridPanel</name>
    <message>
        <source>Go to row, column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cell %1 in this plane.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 values of %3, decoded as they scroll into view.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
