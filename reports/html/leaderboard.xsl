<?xml version="1.0" encoding="UTF-8"?>
<!-- leaderboard.xsl - leaderboard.xml (core/lib/leaderboard_xml.h) to one
     page comparing runs: a chart of the main scores, a table for all
     levels together, then one per level. Each run shows its label (its
     run id when it has none, and always in small print). Figures are the
     ones of `npukb report`, formatted as common.xsl's fmt does, the raw
     value in data-v; the run's coverage and suspect speedups are beside
     them, and links lead to the run's own report when it has one. The key
     columns (run, scores, pass rate, speedup) come first so that they fit
     a 1280 px window; columns sort with a click (a few lines of inline
     script; no network). -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:include href="common.xsl"/>
  <xsl:output method="html" encoding="UTF-8" indent="no"/>

  <xsl:key name="scope" match="aggregate" use="@name"/>

  <xsl:template match="/leaderboard">
    <xsl:variable name="scopes"
        select="entry/metrics/aggregate[@name != 'overall'][generate-id() = generate-id(key('scope', @name)[1])]"/>
    <xsl:call-template name="doctype"/>
    <html lang="en">
      <xsl:call-template name="head">
        <xsl:with-param name="title" select="'npukb leaderboard'"/>
      </xsl:call-template>
      <body>
        <header>
          <h1>npukb leaderboard</h1>
          <p class="sub">
            <span data-k="lb-runs"><xsl:value-of select="count(entry)"/></span> runs over
            <span data-k="lb-tasks"><xsl:value-of select="@tasks"/></span> tasks; npukb
            <xsl:value-of select="@version"/>. Data: <a href="leaderboard.xml">leaderboard.xml</a>.
            Click a column heading to sort.
          </p>
        </header>
        <main>
          <xsl:call-template name="chart"/>
          <xsl:call-template name="scope-table">
            <xsl:with-param name="scope" select="'overall'"/>
          </xsl:call-template>
          <xsl:for-each select="$scopes">
            <xsl:sort select="@name"/>
            <xsl:call-template name="scope-table">
              <xsl:with-param name="scope" select="string(@name)"/>
            </xsl:call-template>
          </xsl:for-each>
          <p class="note">compile@k, correct@k: unbiased pass@k over the tasks with at least k
            samples (n&lt;k: no such task). fast_p: share of tasks with a correct sample more
            than p times as fast as the expert answer; missing tasks count as unsolved.
            Speedup: geometric mean over correct timed samples (answer time / sample
            time). Scores are those the data names: the NPUKernelBench score and npukb's
            fast_0-weighted score (0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0; older data has
            one "weighted" score); their coverage is beside them. Pass rate: correct@1.
            A run's tasks are those it has of the tasks any run here has; <span class="tag suspect">!</span> marks suspect
            speedups (above <xsl:value-of select="entry[1]/metrics/@suspect-above"/>x).</p>
        </main>
        <script><![CDATA[
(function () {
  function key(td) {
    var v = td.getAttribute("data-v");
    if (v === null || v === "") return null;
    var n = Number(v);
    return isNaN(n) ? v : n;
  }
  document.querySelectorAll("table.board").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var desc = th.getAttribute("aria-sort") !== "descending";
        table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        rows.sort(function (a, b) {
          var x = key(a.cells[col]), y = key(b.cells[col]);
          if (x === y) return 0;
          if (x === null) return 1;  /* not available: always last */
          if (y === null) return -1;
          var r = x < y ? -1 : 1;
          return desc ? -r : r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
]]></script>
      </body>
    </html>
  </xsl:template>

  <xsl:template name="scope-table">
    <xsl:param name="scope"/>
    <xsl:variable name="first" select="key('scope', $scope)[1]"/>
    <xsl:variable name="overall" select="$scope = 'overall'"/>
    <xsl:variable name="scores" select="/leaderboard/entry/metrics/*[local-name() = 'npukernelbench-score' or local-name() = 'fast0-weighted-score' or local-name() = 'weighted-score']"/>
    <xsl:variable name="nb" select="$overall and $scores[local-name() = 'npukernelbench-score']"/>
    <xsl:variable name="f0" select="$overall and $scores[local-name() = 'fast0-weighted-score']"/>
    <xsl:variable name="old" select="$overall and not($nb or $f0) and $scores[local-name() = 'weighted-score']"/>
    <section id="scope-{$scope}">
      <h2><xsl:choose>
        <xsl:when test="$overall">All levels</xsl:when>
        <xsl:otherwise><xsl:value-of select="$scope"/></xsl:otherwise>
      </xsl:choose></h2>
      <div class="scroll">
      <table class="board metrics summary" data-scope="{$scope}">
        <thead>
          <tr>
            <th data-col="run">Run</th>
            <xsl:if test="$nb"><th data-col="score-npukernelbench" title="NPUKernelBench's score: per task the share of its cases passed, averaged per level, weighted 0.2/0.3/0.5">npukernelbench-score</th></xsl:if>
            <xsl:if test="$f0"><th data-col="score-fast0" title="npukb's score: 0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0">fast0-weighted-score</th></xsl:if>
            <xsl:if test="$old"><th data-col="score-weighted" title="0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0, over the levels present">weighted</th></xsl:if>
            <th data-col="pass-rate" title="pass rate: unbiased pass@1 of correctness">correct@1</th>
            <th data-col="speedup" title="geometric mean over correct timed samples">speedup</th>
            <th data-col="tasks" title="tasks the run has / tasks of this scope in any run">Tasks</th>
            <th>Samples</th>
            <xsl:for-each select="$first/compile"><th>compile@<xsl:value-of select="@k"/></th></xsl:for-each>
            <xsl:for-each select="$first/correct[@k != 1]"><th>correct@<xsl:value-of select="@k"/></th></xsl:for-each>
            <xsl:for-each select="$first/fast"><th>fast_<xsl:value-of select="@p"/></th></xsl:for-each>
            <th title="speedups above the suspect threshold">suspect</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="/leaderboard/entry">
            <xsl:variable name="a" select="metrics/aggregate[@name = $scope]"/>
            <xsl:variable name="run" select="string(@run)"/>
            <xsl:variable name="m" select="metrics"/>
            <tr data-run="{$run}">
              <th scope="row" data-v="{$run}" class="run" title="run {$run}">
                <xsl:call-template name="run-name"/>
              </th>
              <xsl:choose>
                <xsl:when test="$a">
                  <xsl:if test="$nb">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="$m/npukernelbench-score"/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':npukernelbench-score')"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:if>
                  <xsl:if test="$f0">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="$m/fast0-weighted-score"/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':fast0-weighted-score')"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:if>
                  <xsl:if test="$old">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="$m/weighted-score"/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':weighted')"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:if>
                  <xsl:call-template name="score-cell">
                    <xsl:with-param name="f" select="$a/correct[@k = 1]"/>
                    <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':correct-1')"/>
                    <xsl:with-param name="a" select="$a"/>
                  </xsl:call-template>
                  <xsl:call-template name="score-cell">
                    <xsl:with-param name="f" select="$a/geomean-speedup"/>
                    <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':speedup')"/>
                    <xsl:with-param name="a" select="$a"/>
                    <xsl:with-param name="kind" select="'speedup'"/>
                  </xsl:call-template>
                  <td data-k="lb:{$run}:{$scope}:tasks" data-v="{$a/@tasks - $a/@tasks-missing}">
                    <xsl:value-of select="$a/@tasks - $a/@tasks-missing"/>/<xsl:value-of select="$a/@tasks"/>
                  </td>
                  <td data-k="lb:{$run}:{$scope}:samples" data-v="{$a/@samples}"><xsl:value-of select="$a/@samples"/></td>
                  <xsl:for-each select="$a/compile">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="."/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':compile-', @k)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:for-each select="$a/correct[@k != 1]">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="."/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':correct-', @k)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:for-each select="$a/fast">
                    <xsl:call-template name="score-cell">
                      <xsl:with-param name="f" select="."/>
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':fast-', @p)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <td data-k="lb:{$run}:{$scope}:suspect" data-v="{$a/@suspect-speedups}"><xsl:value-of select="$a/@suspect-speedups"/></td>
                </xsl:when>
                <xsl:otherwise>
                  <td colspan="{2 + number($nb) + number($f0) + number($old)}" class="na">no task of this level in this run</td>
                  <td data-k="lb:{$run}:{$scope}:tasks" data-v="0">0/<xsl:value-of select="$first/@tasks"/></td>
                  <td colspan="{2 + count($first/compile) + count($first/correct[@k != 1]) + count($first/fast)}"/>
                </xsl:otherwise>
              </xsl:choose>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
      </div>
    </section>
  </xsl:template>

  <!-- the run's label (its run id when it has none), linked to its report,
       with the run id in small print (context: an entry) -->
  <xsl:template name="run-name">
    <xsl:variable name="name">
      <xsl:choose>
        <xsl:when test="string(@label) != ''"><xsl:value-of select="@label"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="@run"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <span class="label" data-k="lb:{@run}:label">
      <xsl:call-template name="linked">
        <xsl:with-param name="text" select="$name"/>
      </xsl:call-template>
    </span>
    <xsl:if test="@complete = 'no'">
      <span class="tag incomplete" title="no end-of-run record: the run was killed or is still running; its figures cover only what it judged"> incomplete</span>
    </xsl:if>
    <br/>
    <small class="dim runid">
      <xsl:if test="string(@label) != ''"><xsl:value-of select="@run"/><xsl:text> </xsl:text></xsl:if>
      <xsl:value-of select="@backend"/>
    </small>
  </xsl:template>

  <!-- a figure's cell: value formatted (or n<k / n/a), linked to the run
       report, with the coverage in its title and a suspect flag when the
       scope has any; the raw value in data-v -->
  <xsl:template name="score-cell">
    <xsl:param name="f"/>
    <xsl:param name="k"/>
    <xsl:param name="a"/>
    <xsl:param name="kind" select="'share'"/>
    <xsl:variable name="text">
      <xsl:choose>
        <xsl:when test="$f/@available = 'true'">
          <xsl:call-template name="fmt">
            <xsl:with-param name="v" select="$f/@value"/>
            <xsl:with-param name="kind" select="$kind"/>
          </xsl:call-template>
        </xsl:when>
        <xsl:when test="$f/@k">n&lt;k</xsl:when>
        <xsl:otherwise>n/a</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <td data-v="{$f/@value}"
        title="{$a/@tasks - $a/@tasks-missing} of {$a/@tasks} tasks, {$a/@samples} samples{substring(concat('; not available: ', $f/@reason), 1, 1000 * number($f/@available = 'false'))}">
      <span data-k="{$k}" data-v="{$f/@value}">
        <xsl:if test="$f/@available != 'true'"><xsl:attribute name="class">na</xsl:attribute></xsl:if>
        <xsl:for-each select="$a">
          <xsl:call-template name="linked">
            <xsl:with-param name="text" select="$text"/>
          </xsl:call-template>
        </xsl:for-each>
      </span>
      <xsl:call-template name="coverage">
        <xsl:with-param name="f" select="$f"/>
      </xsl:call-template>
      <xsl:if test="$a/@suspect-speedups &gt; 0">
        <xsl:text> </xsl:text>
        <span class="tag suspect" title="{$a/@suspect-speedups} suspect speedup(s)">!</span>
      </xsl:if>
    </td>
  </xsl:template>

  <!-- a score's coverage, beside it: the tasks it judged of those its
       levels have (NPUKernelBench's score), the levels it lacks, as far as
       the data says -->
  <xsl:template name="coverage">
    <xsl:param name="f"/>
    <xsl:if test="string($f/@coverage) != '' or string($f/@levels-missing) != '' or $f/level">
      <small class="dim coverage">
        <xsl:if test="$f/level">
          <xsl:value-of select="concat(' ', sum($f/level/@tasks-judged), '/', sum($f/level/@tasks), ' tasks')"/>
        </xsl:if>
        <xsl:if test="string($f/@coverage) != ''">
          <xsl:text> of </xsl:text>
          <xsl:call-template name="fmt"><xsl:with-param name="v" select="$f/@coverage"/></xsl:call-template>
        </xsl:if>
        <xsl:if test="string($f/@levels-missing) != ''">
          <xsl:text> (no </xsl:text><xsl:value-of select="$f/@levels-missing"/><xsl:text>)</xsl:text>
        </xsl:if>
      </small>
    </xsl:if>
  </xsl:template>

  <!-- =============================================================== chart -->
  <!-- One group of horizontal bars per run: its scores (as the table's
       first columns) and its pass rate, 0-100 % over 320 px. -->
  <xsl:template name="chart">
    <xsl:variable name="series" select="/leaderboard/entry[1]/metrics/*[local-name() = 'npukernelbench-score' or local-name() = 'fast0-weighted-score' or (local-name() = 'weighted-score' and not(../npukernelbench-score or ../fast0-weighted-score))]"/>
    <xsl:variable name="nser" select="count($series) + 1"/>
    <xsl:variable name="grouph" select="$nser * 16 + 14"/>
    <xsl:variable name="h" select="count(entry) * $grouph + 34"/>
    <figure class="chart lb-chart" id="chart">
      <figcaption>Scores by run
        <span class="legend">
          <xsl:for-each select="$series">
            <span class="key s{position()}"><xsl:value-of select="local-name()"/></span>
          </xsl:for-each>
          <span class="key s{$nser}">pass rate (correct@1)</span>
        </span>
      </figcaption>
      <svg xmlns="http://www.w3.org/2000/svg" role="img" class="runs" width="680" height="{$h}"
           viewBox="0 0 680 {$h}" data-k="lb-chart">
        <title>Scores by run</title>
        <xsl:for-each select="entry">
          <xsl:variable name="e" select="."/>
          <xsl:variable name="y" select="(position() - 1) * $grouph + 6"/>
          <xsl:variable name="name">
            <xsl:choose>
              <xsl:when test="string(@label) != ''"><xsl:value-of select="@label"/></xsl:when>
              <xsl:otherwise><xsl:value-of select="@run"/></xsl:otherwise>
            </xsl:choose>
          </xsl:variable>
          <text x="0" y="{$y + 12}" class="label">
            <title><xsl:value-of select="@run"/></title>
            <xsl:value-of select="substring($name, 1, 28)"/>
            <xsl:if test="string-length($name) &gt; 28">&#8230;</xsl:if>
          </text>
          <xsl:for-each select="$series">
            <xsl:variable name="n" select="local-name()"/>
            <xsl:call-template name="run-bar">
              <xsl:with-param name="f" select="$e/metrics/*[local-name() = $n]"/>
              <xsl:with-param name="y" select="$y + (position() - 1) * 16"/>
              <xsl:with-param name="cls" select="concat('s', position())"/>
              <xsl:with-param name="run" select="$e/@run"/>
              <xsl:with-param name="series" select="$n"/>
            </xsl:call-template>
          </xsl:for-each>
          <xsl:call-template name="run-bar">
            <xsl:with-param name="f" select="$e/metrics/aggregate[@name = 'overall']/correct[@k = 1]"/>
            <xsl:with-param name="y" select="$y + ($nser - 1) * 16"/>
            <xsl:with-param name="cls" select="concat('s', $nser)"/>
            <xsl:with-param name="run" select="$e/@run"/>
            <xsl:with-param name="series" select="'correct-1'"/>
          </xsl:call-template>
        </xsl:for-each>
        <g class="axis" transform="translate(0, {count(entry) * $grouph + 8})">
          <line x1="220" x2="540" y1="0" y2="0"/>
          <text x="220" y="16">0%</text>
          <text x="380" y="16" text-anchor="middle">50%</text>
          <text x="540" y="16" text-anchor="end">100%</text>
        </g>
      </svg>
    </figure>
  </xsl:template>

  <xsl:template name="run-bar">
    <xsl:param name="f"/>
    <xsl:param name="y"/>
    <xsl:param name="cls"/>
    <xsl:param name="run"/>
    <xsl:param name="series"/>
    <xsl:variable name="ok" select="$f/@available = 'true' and string(number($f/@value)) != 'NaN'"/>
    <xsl:variable name="w">
      <xsl:choose>
        <xsl:when test="$ok and $f/@value &gt; 1">320</xsl:when>
        <xsl:when test="$ok and $f/@value &gt; 0"><xsl:value-of select="round(320 * $f/@value)"/></xsl:when>
        <xsl:otherwise>0</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <rect xmlns="http://www.w3.org/2000/svg" x="220" y="{$y}" width="320" height="13" class="track"/>
    <rect xmlns="http://www.w3.org/2000/svg" x="220" y="{$y}" width="{$w}" height="13"
          class="bar {$cls}" data-run="{$run}" data-series="{$series}" data-v="{$f/@value}"/>
    <text xmlns="http://www.w3.org/2000/svg" x="{226 + $w}" y="{$y + 11}" class="value">
      <xsl:choose>
        <xsl:when test="$ok">
          <xsl:call-template name="fmt"><xsl:with-param name="v" select="$f/@value"/></xsl:call-template>
        </xsl:when>
        <xsl:otherwise>n/a</xsl:otherwise>
      </xsl:choose>
    </text>
  </xsl:template>

  <!-- text, as a link to the run's report when there is one (context: inside an entry) -->
  <xsl:template name="linked">
    <xsl:param name="text"/>
    <xsl:variable name="href" select="ancestor-or-self::entry/@report"/>
    <xsl:choose>
      <xsl:when test="$href"><a href="{$href}"><xsl:value-of select="$text"/></a></xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
