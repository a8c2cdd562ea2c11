<?xml version="1.0" encoding="UTF-8"?>
<!-- leaderboard.xsl - leaderboard.xml (core/lib/leaderboard_xml.h) to one
     page comparing runs: a table for all levels together, then one per
     level. Every score is shown as written in the data (the figures of
     `npukb report`), with the run's coverage and suspect speedups beside
     it, and links to the run's own report when it has one. Columns sort
     with a click (a few lines of inline script; no network). -->
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
            Speedup: geometric mean over correct timed samples. Weighted score: 0.2 L1 + 0.3
            L2 + 0.5 L3 of fast_0, over the levels present. A run's tasks are those it has
            of the tasks any run here has; <span class="tag suspect">!</span> marks suspect
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
    <section id="scope-{$scope}">
      <h2><xsl:choose>
        <xsl:when test="$scope = 'overall'">All levels</xsl:when>
        <xsl:otherwise><xsl:value-of select="$scope"/></xsl:otherwise>
      </xsl:choose></h2>
      <div class="scroll">
      <table class="board metrics summary" data-scope="{$scope}">
        <thead>
          <tr>
            <th>Run</th><th title="tasks the run has / tasks of this scope in any run">Tasks</th>
            <th>Samples</th>
            <xsl:for-each select="$first/compile"><th>compile@<xsl:value-of select="@k"/></th></xsl:for-each>
            <xsl:for-each select="$first/correct"><th>correct@<xsl:value-of select="@k"/></th></xsl:for-each>
            <xsl:for-each select="$first/fast"><th>fast_<xsl:value-of select="@p"/></th></xsl:for-each>
            <th>speedup</th>
            <xsl:if test="$scope = 'overall'"><th>weighted</th></xsl:if>
            <th title="speedups above the suspect threshold">suspect</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="/leaderboard/entry">
            <xsl:variable name="a" select="metrics/aggregate[@name = $scope]"/>
            <xsl:variable name="run" select="string(@run)"/>
            <tr data-run="{$run}">
              <th scope="row" data-v="{$run}">
                <xsl:call-template name="linked">
                  <xsl:with-param name="text" select="$run"/>
                </xsl:call-template>
                <span class="dim"><xsl:text> </xsl:text><xsl:value-of select="@backend"/></span>
                <xsl:if test="@complete = 'no'">
                  <span class="tag incomplete" title="no end-of-run record: the run was killed or is still running; its figures cover only what it judged"> incomplete</span>
                </xsl:if>
              </th>
              <xsl:choose>
                <xsl:when test="$a">
                  <td data-k="lb:{$run}:{$scope}:tasks" data-v="{$a/@tasks - $a/@tasks-missing}">
                    <xsl:value-of select="$a/@tasks - $a/@tasks-missing"/>/<xsl:value-of select="$a/@tasks"/>
                  </td>
                  <td data-k="lb:{$run}:{$scope}:samples" data-v="{$a/@samples}"><xsl:value-of select="$a/@samples"/></td>
                  <xsl:for-each select="$a/compile">
                    <xsl:call-template name="score">
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':compile-', @k)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:for-each select="$a/correct">
                    <xsl:call-template name="score">
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':correct-', @k)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:for-each select="$a/fast">
                    <xsl:call-template name="score">
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':fast-', @p)"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:for-each select="$a/geomean-speedup">
                    <xsl:call-template name="score">
                      <xsl:with-param name="k" select="concat('lb:', $run, ':', $scope, ':speedup')"/>
                      <xsl:with-param name="a" select="$a"/>
                    </xsl:call-template>
                  </xsl:for-each>
                  <xsl:if test="$scope = 'overall'">
                    <xsl:for-each select="metrics/weighted-score">
                      <xsl:call-template name="score">
                        <xsl:with-param name="k" select="concat('lb:', $run, ':weighted')"/>
                        <xsl:with-param name="a" select="$a"/>
                      </xsl:call-template>
                    </xsl:for-each>
                  </xsl:if>
                  <td data-k="lb:{$run}:{$scope}:suspect" data-v="{$a/@suspect-speedups}"><xsl:value-of select="$a/@suspect-speedups"/></td>
                </xsl:when>
                <xsl:otherwise>
                  <td data-k="lb:{$run}:{$scope}:tasks" data-v="0">0/<xsl:value-of select="$first/@tasks"/></td>
                  <td colspan="{3 + count($first/compile) + count($first/correct) + count($first/fast) + number($scope = 'overall')}"
                      class="na">no task of this level in this run</td>
                </xsl:otherwise>
              </xsl:choose>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
      </div>
    </section>
  </xsl:template>

  <!-- a figure's cell: value (or n<k / n/a), linked to the run report, with
       the coverage in its title and a suspect flag when the scope has any -->
  <xsl:template name="score">
    <xsl:param name="k"/>
    <xsl:param name="a"/>
    <xsl:variable name="text">
      <xsl:choose>
        <xsl:when test="@available = 'true'"><xsl:value-of select="@value"/></xsl:when>
        <xsl:when test="@k">n&lt;k</xsl:when>
        <xsl:otherwise>n/a</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <td data-v="{@value}"
        title="{$a/@tasks - $a/@tasks-missing} of {$a/@tasks} tasks, {$a/@samples} samples{substring(concat('; not available: ', @reason), 1, 1000 * number(@available = 'false'))}">
      <span data-k="{$k}">
        <xsl:if test="@available != 'true'"><xsl:attribute name="class">na</xsl:attribute></xsl:if>
        <xsl:call-template name="linked">
          <xsl:with-param name="text" select="$text"/>
        </xsl:call-template>
      </span>
      <xsl:if test="$a/@suspect-speedups &gt; 0">
        <xsl:text> </xsl:text>
        <span class="tag suspect" title="{$a/@suspect-speedups} suspect speedup(s)">!</span>
      </xsl:if>
    </td>
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
