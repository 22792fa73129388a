#include "report/ReportStyle.h"

namespace ts {

QString reportStyle()
{
    return QStringLiteral(R"CSS(
:root { --fg: #1d2330; --muted: #5d6678; --bg: #ffffff; --panel: #f5f7fa; --line: #d9dee7;
        --ok: #1f7a3d; --warn: #a35c00; --err: #b3261e; --accent: #2f6fdb; --accent2: #e08a00; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e8ef; --muted: #9aa3b5; --bg: #15181e; --panel: #1e222a; --line: #343a46;
          --ok: #5cc689; --warn: #f0a54a; --err: #ff7a70; --accent: #6ea2ff; --accent2: #ffb347; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; word-break: break-all; }
h2 { font-size: 19px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0; }
.sub, .muted, .note { color: var(--muted); }
.note { font-size: 13px; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.hash { word-break: break-all; }
nav { margin: 14px 0 4px; font-size: 13px; }
nav a { color: var(--accent); margin-right: 14px; text-decoration: none; }
.verdict { display: inline-block; margin-top: 10px; padding: 6px 12px; border-radius: 6px; font-weight: 600;
           background: var(--panel); border-left: 5px solid var(--ok); }
.verdict.warn { border-left-color: var(--warn); }
.verdict.error { border-left-color: var(--err); }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; margin: 10px 0; }
.fact { background: var(--panel); border-radius: 6px; padding: 8px 12px; }
.fact .k { color: var(--muted); font-size: 12px; }
.fact .v { font-size: 18px; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { word-break: break-word; }
.sev { font-weight: 600; white-space: nowrap; }
.sev.Error { color: var(--err); } .sev.Warning { color: var(--warn); } .sev.Info { color: var(--muted); }
.agree { color: var(--ok); font-weight: 600; } .disagree { color: var(--err); font-weight: 600; }
.value { white-space: pre-wrap; word-break: break-word; max-height: 16em; overflow: auto; margin: 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); gap: 14px; }
figure { margin: 0; background: var(--panel); border-radius: 6px; padding: 8px; }
figcaption { font-size: 12.5px; margin-bottom: 4px; word-break: break-all; }
svg.chart { width: 100%; height: auto; display: block; }
svg .plot { fill: var(--bg); stroke: var(--line); }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .tick, svg .legend { fill: var(--muted); font-size: 11px; font-family: system-ui, "DejaVu Sans", sans-serif; }
svg .muted { fill: var(--muted); font-size: 12px; }
svg .flag { fill: none; stroke: var(--err); stroke-width: 2; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { nav { display: none; } .value { max-height: none; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
)CSS");
}

} // namespace ts
