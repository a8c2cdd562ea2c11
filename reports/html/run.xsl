<?xml version="1.0" encoding="UTF-8"?>
<!-- run.xsl - results.xml to the HTML run report: index.html (this
     stylesheet's main result) and one page per (task, sample) written with
     exsl:document to the name in sample/@page. Every figure is computed here
     from the verdicts; the C side only writes data.

     Counting: a unit is one (task, sample, case), as in JUnit and
     summary.txt. A sample "compiles" when its compile verdict passed and is
     "correct" when it compiled and every case passed. The error breakdown
     counts each failure once where it happened: a failed compile once per
     sample, a failed case once per case. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:exsl="http://exslt.org/common"
    xmlns:svg="http://www.w3.org/2000/svg"
    extension-element-prefixes="exsl"
    exclude-result-prefixes="svg">

  <xsl:include href="common.xsl"/>
  <xsl:output method="html" encoding="UTF-8" indent="no"/>

  <xsl:key name="level" match="task" use="@level"/>
  <!-- where a sample fails, as the classify stage found it in its source:
       "sample-id|file:line" -->
  <xsl:key name="at" match="sample//*[@at-file]"
           use="concat(generate-id(ancestor::sample), '|', @at-file, ':', @at-line)"/>
  <!-- failures by category: a failed compile is counted once, on its
       sample's first case (every case of it carries the compile verdict) -->
  <xsl:key name="fcat"
           match="case[@outcome = 'fail' and (@stage != 'compile' or not(preceding-sibling::case))]"
           use="@category"/>
  <xsl:variable name="failures"
      select="//case[@outcome = 'fail' and (@stage != 'compile' or not(preceding-sibling::case))]"/>
  <!-- the first failure of each category, for grouping -->
  <xsl:variable name="firsts"
      select="$failures[generate-id() = generate-id(key('fcat', @category)[1])]"/>

  <!-- ======================================================= index.html -->
  <xsl:template match="/run">
    <xsl:call-template name="doctype"/>
    <html lang="en">
      <xsl:call-template name="head">
        <xsl:with-param name="title" select="concat('npukb run ', @label, substring(' ', 1, string-length(@label)), @id)"/>
      </xsl:call-template>
      <body>
        <header>
          <h1>npukb run report<xsl:if test="string(@label) != ''">: <span data-k="run-label"><xsl:value-of select="@label"/></span></xsl:if></h1>
          <p class="sub">
            <xsl:call-template name="count-of">
              <xsl:with-param name="n" select="count(task)"/>
              <xsl:with-param name="word" select="'task'"/>
            </xsl:call-template>
            <xsl:text>, </xsl:text>
            <xsl:call-template name="count-of">
              <xsl:with-param name="n" select="count(task/sample)"/>
              <xsl:with-param name="word" select="'sample'"/>
            </xsl:call-template>
            <xsl:text> on </xsl:text>
            <b><xsl:value-of select="provenance/backend/@name"/></b>
            (<xsl:value-of select="provenance/soc/@name"/>).
            Data: <a href="../results.xml">results.xml</a>,
            <a href="../junit.xml">junit.xml</a>,
            <a href="../journal.jsonl">journal.jsonl</a>,
            <a href="../summary.txt">summary.txt</a>.
          </p>
        </header>
        <main>
          <xsl:call-template name="summary"/>

          <!-- ====== METRICS HOOK ======================================
               pass@k, compile@k, fast_p, speedup and the weighted score
               come from the metrics module, which adds a <metrics>
               element under <run>. Without it nothing is shown: no
               placeholder numbers. -->
          <xsl:if test="metrics">
            <xsl:apply-templates select="metrics"/>
          </xsl:if>
          <!-- ====== end of METRICS HOOK =============================== -->

          <section class="charts">
            <xsl:call-template name="chart-rates"/>
            <xsl:call-template name="chart-categories"/>
          </section>
          <xsl:call-template name="task-table"/>
          <xsl:call-template name="provenance"/>
        </main>
      </body>
    </html>
    <xsl:for-each select="task/sample">
      <exsl:document href="{@page}" method="html" encoding="UTF-8" indent="no">
        <xsl:call-template name="sample-page"/>
      </exsl:document>
    </xsl:for-each>
  </xsl:template>

  <!-- per level counts, then all levels -->
  <xsl:template name="summary">
    <section id="summary">
      <h2>Summary</h2>
      <table class="summary">
        <thead>
          <tr>
            <th>Level</th><th>Tasks</th><th>Samples</th><th>Compiled</th><th>Correct</th>
            <th>Cases</th><th>Passed</th><th>Failed</th><th>Skipped</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="task[generate-id() = generate-id(key('level', @level)[1])]">
            <xsl:sort select="@level" data-type="number"/>
            <xsl:call-template name="summary-row">
              <xsl:with-param name="label" select="concat('Level ', @level)"/>
              <xsl:with-param name="key" select="concat('level', @level)"/>
              <xsl:with-param name="tasks" select="key('level', @level)"/>
            </xsl:call-template>
          </xsl:for-each>
        </tbody>
        <tfoot>
          <xsl:call-template name="summary-row">
            <xsl:with-param name="label" select="'All'"/>
            <xsl:with-param name="key" select="'all'"/>
            <xsl:with-param name="tasks" select="/run/task"/>
          </xsl:call-template>
        </tfoot>
      </table>
      <xsl:if test="$failures">
        <p class="note">Failures by category:
          <xsl:for-each select="$firsts">
            <xsl:sort select="count(key('fcat', @category))" data-type="number" order="descending"/>
            <xsl:variable name="c" select="string(@category)"/>
            <xsl:if test="position() &gt; 1">, </xsl:if>
            <span class="cat" data-k="fail-{$c}"><xsl:value-of select="$c"/>
            <xsl:text> </xsl:text>
            <xsl:value-of select="count(key('fcat', $c))"/></span>
          </xsl:for-each>
        </p>
      </xsl:if>
    </section>
  </xsl:template>

  <xsl:template name="summary-row">
    <xsl:param name="label"/>
    <xsl:param name="key"/>
    <xsl:param name="tasks"/>
    <xsl:variable name="s" select="$tasks/sample"/>
    <xsl:variable name="c" select="$s/case"/>
    <tr>
      <th scope="row"><xsl:value-of select="$label"/></th>
      <td data-k="{$key}-tasks"><xsl:value-of select="count($tasks)"/></td>
      <td data-k="{$key}-samples"><xsl:value-of select="count($s)"/></td>
      <td data-k="{$key}-compiled"><xsl:value-of select="count($s[compile/@outcome = 'pass'])"/></td>
      <td data-k="{$key}-correct"><xsl:value-of select="count($s[compile/@outcome = 'pass' and case and not(case[@outcome != 'pass'])])"/></td>
      <td data-k="{$key}-units"><xsl:value-of select="count($c)"/></td>
      <td data-k="{$key}-passed" class="pass"><xsl:value-of select="count($c[@outcome = 'pass'])"/></td>
      <td data-k="{$key}-failed" class="fail"><xsl:value-of select="count($c[@outcome = 'fail'])"/></td>
      <td data-k="{$key}-skipped" class="skipped"><xsl:value-of select="count($c[@outcome = 'skipped'])"/></td>
    </tr>
  </xsl:template>

  <!-- ============================================================ charts -->
  <!-- Pass rates per level: three bars per level (compiled samples,
       correct samples, passed cases), 0-100 % over 300 px. -->
  <xsl:template name="chart-rates">
    <xsl:variable name="levels" select="task[generate-id() = generate-id(key('level', @level)[1])]"/>
    <xsl:variable name="rowh" select="66"/>
    <figure class="chart">
      <figcaption>Pass rates per level</figcaption>
      <svg xmlns="http://www.w3.org/2000/svg" role="img" class="rates"
           width="460" height="{count($levels) * $rowh + 40}"
           viewBox="0 0 460 {count($levels) * $rowh + 40}">
        <title>Pass rates per level</title>
        <xsl:for-each select="$levels">
          <xsl:sort select="@level" data-type="number"/>
          <xsl:variable name="y" select="(position() - 1) * $rowh + 8"/>
          <xsl:variable name="s" select="key('level', @level)/sample"/>
          <xsl:variable name="c" select="$s/case"/>
          <text x="0" y="{$y + 12}" class="label">Level <xsl:value-of select="@level"/></text>
          <xsl:call-template name="rate-bar">
            <xsl:with-param name="y" select="$y"/>
            <xsl:with-param name="name" select="'compiled'"/>
            <xsl:with-param name="part" select="count($s[compile/@outcome = 'pass'])"/>
            <xsl:with-param name="whole" select="count($s)"/>
          </xsl:call-template>
          <xsl:call-template name="rate-bar">
            <xsl:with-param name="y" select="$y + 18"/>
            <xsl:with-param name="name" select="'correct'"/>
            <xsl:with-param name="part" select="count($s[compile/@outcome = 'pass' and case and not(case[@outcome != 'pass'])])"/>
            <xsl:with-param name="whole" select="count($s)"/>
          </xsl:call-template>
          <xsl:call-template name="rate-bar">
            <xsl:with-param name="y" select="$y + 36"/>
            <xsl:with-param name="name" select="'cases'"/>
            <xsl:with-param name="part" select="count($c[@outcome = 'pass'])"/>
            <xsl:with-param name="whole" select="count($c)"/>
          </xsl:call-template>
        </xsl:for-each>
        <g class="axis" transform="translate(0, {count($levels) * $rowh + 10})">
          <line x1="130" x2="430" y1="0" y2="0"/>
          <text x="130" y="16">0%</text>
          <text x="280" y="16" text-anchor="middle">50%</text>
          <text x="430" y="16" text-anchor="end">100%</text>
        </g>
      </svg>
    </figure>
  </xsl:template>

  <xsl:template name="rate-bar">
    <xsl:param name="y"/>
    <xsl:param name="name"/>
    <xsl:param name="part"/>
    <xsl:param name="whole"/>
    <xsl:variable name="w">
      <xsl:choose>
        <xsl:when test="$whole &gt; 0"><xsl:value-of select="round(300 * $part div $whole)"/></xsl:when>
        <xsl:otherwise>0</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <text xmlns="http://www.w3.org/2000/svg" x="70" y="{$y + 12}" class="series"><xsl:value-of select="$name"/></text>
    <rect xmlns="http://www.w3.org/2000/svg" x="130" y="{$y}" width="300" height="14" class="track"/>
    <rect xmlns="http://www.w3.org/2000/svg" x="130" y="{$y}" width="{$w}" height="14" class="bar {$name}"/>
    <text xmlns="http://www.w3.org/2000/svg" x="{135 + $w}" y="{$y + 11}" class="value">
      <xsl:value-of select="$part"/>/<xsl:value-of select="$whole"/>
    </text>
  </xsl:template>

  <!-- Error categories: one bar per category, longest first. -->
  <xsl:template name="chart-categories">
    <figure class="chart">
      <figcaption>Failures by category</figcaption>
      <xsl:choose>
        <xsl:when test="not($firsts)">
          <p class="none">No failures.</p>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="max">
            <xsl:for-each select="$firsts">
              <xsl:sort select="count(key('fcat', @category))" data-type="number" order="descending"/>
              <xsl:if test="position() = 1">
                <xsl:value-of select="count(key('fcat', @category))"/>
              </xsl:if>
            </xsl:for-each>
          </xsl:variable>
          <svg xmlns="http://www.w3.org/2000/svg" role="img" class="categories"
               width="460" height="{count($firsts) * 22 + 8}"
               viewBox="0 0 460 {count($firsts) * 22 + 8}">
            <title>Failures by category</title>
            <xsl:for-each select="$firsts">
              <xsl:sort select="count(key('fcat', @category))" data-type="number" order="descending"/>
              <xsl:variable name="c" select="string(@category)"/>
              <xsl:variable name="n" select="count(key('fcat', $c))"/>
              <xsl:variable name="w" select="round(260 * $n div $max)"/>
              <xsl:variable name="y" select="(position() - 1) * 22 + 4"/>
              <text x="0" y="{$y + 12}" class="label"><xsl:value-of select="$c"/></text>
              <rect x="130" y="{$y}" width="{$w}" height="15" class="bar fail"/>
              <text x="{135 + $w}" y="{$y + 12}" class="value">
                <xsl:value-of select="$n"/>
                <xsl:text> (</xsl:text>
                <xsl:value-of select="format-number($n div count($failures), '0%')"/>
                <xsl:text>)</xsl:text>
              </text>
            </xsl:for-each>
          </svg>
        </xsl:otherwise>
      </xsl:choose>
    </figure>
  </xsl:template>

  <!-- ====================================================== task table -->
  <!-- The model samples first, failing ones first (then in the run's
       order), with a filter by text, outcome and category; the expert
       answers, the baseline, after them. A sample fails when its compile
       or any of its cases failed. -->
  <xsl:template name="task-table">
    <xsl:variable name="model" select="task/sample[@answer != 'true']"/>
    <section id="samples">
      <h2>Model samples</h2>
      <xsl:choose>
        <xsl:when test="not($model)"><p class="na">No model sample in this run: only the expert answers.</p></xsl:when>
        <xsl:otherwise>
          <form class="filter" id="filter" onsubmit="return false">
            <label>Find <input type="search" id="filter-text" placeholder="task, sample, model, message"/></label>
            <label>Outcome <select id="filter-outcome">
              <option value="">any</option><option value="fail">fail</option>
              <option value="pass">pass</option><option value="skipped">skipped</option>
            </select></label>
            <label>Category <select id="filter-category">
              <option value="">any</option>
              <xsl:for-each select="$firsts">
                <xsl:sort select="@category"/>
                <option value="{@category}"><xsl:value-of select="@category"/></option>
              </xsl:for-each>
            </select></label>
            <span class="dim" id="filter-count"><xsl:value-of select="count($model)"/> of <xsl:value-of select="count($model)"/> shown</span>
          </form>
          <xsl:call-template name="sample-table">
            <xsl:with-param name="samples" select="$model"/>
            <xsl:with-param name="id" select="'sample-rows'"/>
          </xsl:call-template>
          <script><![CDATA[
(function () {
  var text = document.getElementById("filter-text"), outcome = document.getElementById("filter-outcome"),
      category = document.getElementById("filter-category"), count = document.getElementById("filter-count");
  var rows = document.querySelectorAll("#sample-rows tbody tr");
  function apply() {
    var t = text.value.trim().toLowerCase(), o = outcome.value, c = category.value, shown = 0;
    rows.forEach(function (r) {
      var ok = (!t || r.textContent.toLowerCase().indexOf(t) >= 0) &&
        (!o || r.getAttribute("data-outcome") === o) &&
        (!c || (" " + r.getAttribute("data-category") + " ").indexOf(" " + c + " ") >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  [text, outcome, category].forEach(function (e) { e.addEventListener("input", apply); e.addEventListener("change", apply); });
  apply();
})();
]]></script>
        </xsl:otherwise>
      </xsl:choose>
    </section>
    <xsl:if test="task/sample[@answer = 'true']">
      <section id="answers">
        <h2>Expert answers (baseline)</h2>
        <xsl:call-template name="sample-table">
          <xsl:with-param name="samples" select="task/sample[@answer = 'true']"/>
          <xsl:with-param name="id" select="'answer-rows'"/>
        </xsl:call-template>
      </section>
    </xsl:if>
  </xsl:template>

  <xsl:template name="sample-table">
    <xsl:param name="samples"/>
    <xsl:param name="id"/>
    <table class="tasks" id="{$id}">
      <thead>
        <tr>
          <th>Task</th><th>Sample</th><th>Compile</th><th>Correctness</th>
          <th>Performance</th><th>Category</th>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="$samples">
          <xsl:sort select="number(compile/@outcome = 'pass' and not(case[@outcome = 'fail']))" data-type="number"/>
          <xsl:sort select="@page"/>
          <xsl:variable name="outcome">
            <xsl:choose>
              <xsl:when test="compile/@outcome = 'fail' or case[@outcome = 'fail']">fail</xsl:when>
              <xsl:when test="compile/@outcome = 'skipped' or case[@outcome = 'skipped']">skipped</xsl:when>
              <xsl:otherwise>pass</xsl:otherwise>
            </xsl:choose>
          </xsl:variable>
          <xsl:variable name="cats">
            <xsl:for-each select="case[@outcome = 'fail' and @category][not(@category = preceding-sibling::case[@outcome = 'fail']/@category)]">
              <xsl:if test="position() &gt; 1"><xsl:text> </xsl:text></xsl:if>
              <xsl:value-of select="@category"/>
            </xsl:for-each>
          </xsl:variable>
          <tr data-task="{../@id}" data-sample="{@id}" data-outcome="{$outcome}" data-category="{$cats}">
            <th scope="row" class="task">
              <span class="lvl">L<xsl:value-of select="../@level"/></span>
              <xsl:text> </xsl:text>
              <xsl:value-of select="../@category"/>/<b><xsl:value-of select="../@name"/></b>
            </th>
            <td>
              <a href="{@page}"><xsl:value-of select="@id"/></a>
              <xsl:if test="string(@model) != ''"><xsl:text> </xsl:text><span class="tag model" title="model"><xsl:value-of select="@model"/></span></xsl:if>
              <xsl:if test="@answer = 'true'"><xsl:text> </xsl:text><span class="tag">answer</span></xsl:if>
              <xsl:if test="case/*/@flags">
                <xsl:text> </xsl:text>
                <span class="tag suspect" title="{case/*[@flags][1]/@flags}">suspect</span>
              </xsl:if>
              <xsl:if test="case/correctness/defects">
                <xsl:text> </xsl:text>
                <span class="tag defect" title="{case/correctness[defects][1]/defects}">defects</span>
              </xsl:if>
            </td>
            <td>
              <xsl:call-template name="badge">
                <xsl:with-param name="outcome" select="compile/@outcome"/>
              </xsl:call-template>
            </td>
            <td>
              <xsl:choose>
                <xsl:when test="compile/@outcome = 'pass'">
                  <xsl:call-template name="badge">
                    <xsl:with-param name="outcome" select="$outcome"/>
                    <xsl:with-param name="text" select="concat(count(case[@outcome = 'pass']), '/', count(case), ' cases')"/>
                  </xsl:call-template>
                </xsl:when>
                <xsl:otherwise><span class="na">not run</span></xsl:otherwise>
              </xsl:choose>
            </td>
            <td class="num">
              <xsl:choose>
                <xsl:when test="case/performance[@cycles]">
                  <xsl:value-of select="format-number(sum(case/performance/@cycles), '#,##0')"/> cycles
                  <span class="dim">(<xsl:value-of select="count(case/performance[@cycles])"/> cases)</span>
                </xsl:when>
                <xsl:otherwise><span class="na">&#8211;</span></xsl:otherwise>
              </xsl:choose>
            </td>
            <td>
              <xsl:for-each select="case[@outcome = 'fail' and @category][not(@category = preceding-sibling::case[@outcome = 'fail']/@category)]">
                <xsl:if test="position() &gt; 1">, </xsl:if>
                <span class="cat"><xsl:value-of select="@category"/></span>
              </xsl:for-each>
              <xsl:for-each select="(case[@outcome = 'fail'])[1]">
                <xsl:variable name="msg" select="(*[@outcome = 'fail']/message)[1]"/>
                <xsl:if test="@at-file or $msg">
                  <div class="first-msg dim">
                    <xsl:if test="@at-file"><span class="mono"><xsl:value-of select="concat(@at-file, ':', @at-line)"/></span><xsl:text> </xsl:text></xsl:if>
                    <xsl:value-of select="substring($msg, 1, 160)"/>
                    <xsl:if test="string-length($msg) &gt; 160">&#8230;</xsl:if>
                  </div>
                </xsl:if>
              </xsl:for-each>
            </td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- ===================================================== sample page -->
  <xsl:template name="sample-page">
    <xsl:call-template name="doctype"/>
    <html lang="en">
      <xsl:call-template name="head">
        <xsl:with-param name="title" select="concat(../@id, ' ', @id, ' - npukb')"/>
      </xsl:call-template>
      <body>
        <header>
          <p class="crumbs"><a href="index.html">&#8592; run report</a></p>
          <h1><xsl:value-of select="../@id"/> &#8212; <xsl:value-of select="@id"/>
            <xsl:if test="@answer = 'true'"><xsl:text> </xsl:text><span class="tag">expert answer</span></xsl:if>
          </h1>
          <xsl:if test="string(@model) != ''">
            <p class="sub">model <b data-k="model"><xsl:value-of select="@model"/></b>
              <xsl:if test="@response-sha256"><xsl:text> </xsl:text><span class="dim mono" title="SHA-256 of the response">response <xsl:value-of select="substring(@response-sha256, 1, 12)"/></span></xsl:if>
            </p>
          </xsl:if>
          <xsl:variable name="at" select="(.//*[@at-file])[1]"/>
          <xsl:if test="$at">
            <p class="sub at">Fails at
              <xsl:variable name="file" select="source/file[@path = $at/@at-file]"/>
              <xsl:choose>
                <xsl:when test="$file and $file/line[@n = $at/@at-line]">
                  <a class="mono" data-k="at" href="#L{count($file/preceding-sibling::file) + 1}-{$at/@at-line}"><xsl:value-of select="concat($at/@at-file, ':', $at/@at-line)"/></a>
                </xsl:when>
                <xsl:otherwise><span class="mono" data-k="at"><xsl:value-of select="concat($at/@at-file, ':', $at/@at-line)"/></span></xsl:otherwise>
              </xsl:choose>
            </p>
          </xsl:if>
        </header>
        <main>
          <section id="compile">
            <h2>Compile
              <xsl:call-template name="badge">
                <xsl:with-param name="outcome" select="compile/@outcome"/>
              </xsl:call-template>
            </h2>
            <xsl:apply-templates select="compile" mode="verdict"/>
            <xsl:apply-templates select="compile-classify" mode="verdict"/>
          </section>
          <section id="cases">
            <h2>Cases</h2>
            <table class="cases">
              <thead>
                <tr>
                  <th>Case</th><th>Outcome</th><th>Category</th><th>Rule</th>
                  <th>Max abs err</th><th>Max rel err</th><th>Bad</th><th>First bad</th>
                  <th>Expected / actual</th><th>Cycles</th><th>Time (&#181;s)</th>
                </tr>
              </thead>
              <tbody>
                <xsl:for-each select="case">
                  <xsl:variable name="e" select="correctness/errors"/>
                  <tr data-case="{@id}">
                    <td>
                      <xsl:choose>
                        <!-- only cases that ran have a section to jump to -->
                        <xsl:when test="correctness or performance or classify">
                          <a href="#case-{@id}"><xsl:value-of select="@id"/></a>
                        </xsl:when>
                        <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
                      </xsl:choose>
                    </td>
                    <td>
                      <xsl:call-template name="badge">
                        <xsl:with-param name="outcome" select="@outcome"/>
                      </xsl:call-template>
                    </td>
                    <td><xsl:value-of select="@category"/></td>
                    <td class="mono"><xsl:value-of select="@rule"/></td>
                    <td class="num"><xsl:value-of select="$e/@max-abs"/></td>
                    <td class="num"><xsl:value-of select="$e/@max-rel"/></td>
                    <td class="num"><xsl:value-of select="$e/@bad-count"/></td>
                    <td class="num"><xsl:value-of select="$e/@first-index"/></td>
                    <td class="num">
                      <xsl:if test="$e">
                        <xsl:value-of select="$e/@expected"/> / <xsl:value-of select="$e/@actual"/>
                      </xsl:if>
                    </td>
                    <td class="num">
                      <xsl:if test="performance/@cycles">
                        <xsl:value-of select="format-number(performance/@cycles, '#,##0')"/>
                      </xsl:if>
                    </td>
                    <td class="num">
                      <xsl:if test="performance/@time-us">
                        <xsl:value-of select="format-number(performance/@time-us, '#,##0.###')"/>
                      </xsl:if>
                    </td>
                  </tr>
                </xsl:for-each>
              </tbody>
            </table>
            <xsl:for-each select="case[correctness or performance or classify]">
              <article class="case" id="case-{@id}">
                <h3>Case <xsl:value-of select="@id"/>
                  <xsl:text> </xsl:text>
                  <xsl:call-template name="badge">
                    <xsl:with-param name="outcome" select="@outcome"/>
                  </xsl:call-template>
                </h3>
                <xsl:apply-templates select="correctness | performance | classify" mode="verdict"/>
                <xsl:if test="@outcome = 'fail'">
                  <xsl:call-template name="bad-plot">
                    <xsl:with-param name="d" select="string(correctness/details)"/>
                  </xsl:call-template>
                </xsl:if>
              </article>
            </xsl:for-each>
          </section>
          <xsl:call-template name="source"/>
          <xsl:call-template name="provenance"/>
        </main>
      </body>
    </html>
  </xsl:template>

  <!-- The sample's source as report_source.c attached it, a line per row;
       the lines where a case fails (@at-file, @at-line) marked. -->
  <xsl:template name="source">
    <xsl:if test="@answer != 'true'">
      <section id="source">
        <h2>Source</h2>
        <xsl:choose>
          <xsl:when test="not(compile/@outcome = 'fail' or case/@outcome = 'fail')"><p class="na">Shown for failing samples only.</p></xsl:when>
          <xsl:when test="not(source)"><p class="na">The sample's folder was not found when this report was written.</p></xsl:when>
          <xsl:when test="not(source/file)"><p class="na">The sample's folder holds no file to show.</p></xsl:when>
          <xsl:otherwise>
            <xsl:if test="source/@truncated = 'true'">
              <p class="note">Shown in part: at most 32 files, 64 KiB per file and 256 KiB in all.</p>
            </xsl:if>
            <xsl:variable name="sid" select="generate-id()"/>
            <xsl:for-each select="source/file">
              <xsl:variable name="fi" select="position()"/>
              <details class="file" data-path="{@path}">
                <xsl:if test="position() = 1 or key('at', concat($sid, '|', @path, ':', line/@n))">
                  <xsl:attribute name="open">open</xsl:attribute>
                </xsl:if>
                <summary><span class="mono"><xsl:value-of select="@path"/></span>
                  <span class="dim"> (<xsl:value-of select="format-number(@bytes, '#,##0')"/> bytes<xsl:if test="@truncated = 'true'">, shown in part</xsl:if><xsl:if test="@binary = 'true'">, binary: not shown</xsl:if>)</span>
                </summary>
                <xsl:if test="line">
                  <table class="source">
                    <tbody>
                      <xsl:for-each select="line">
                        <xsl:variable name="hits" select="key('at', concat($sid, '|', ../@path, ':', @n))"/>
                        <tr id="L{$fi}-{@n}">
                          <xsl:if test="$hits">
                            <xsl:attribute name="class">marked</xsl:attribute>
                            <xsl:attribute name="title">
                              <xsl:for-each select="$hits">
                                <xsl:if test="position() &gt; 1">; </xsl:if>
                                <xsl:value-of select="concat('case ', ancestor-or-self::case/@id, ': ', ancestor-or-self::case/@category)"/>
                              </xsl:for-each>
                            </xsl:attribute>
                          </xsl:if>
                          <td class="ln"><xsl:value-of select="@n"/></td>
                          <td class="code"><xsl:value-of select="."/></td>
                        </tr>
                      </xsl:for-each>
                    </tbody>
                  </table>
                </xsl:if>
              </details>
            </xsl:for-each>
          </xsl:otherwise>
        </xsl:choose>
      </section>
    </xsl:if>
  </xsl:template>

  <!-- Where a mismatch's bad elements lie: the correctness details carry
       "bad by position (64 bins over N elements): c0 c1 ... c63"; one bar
       per bin, its height the share of the bin's elements that are bad. -->
  <xsl:template name="bad-plot">
    <xsl:param name="d"/>
    <xsl:variable name="rest" select="substring-after($d, 'bad by position (')"/>
    <xsl:if test="$rest">
      <xsl:variable name="bins" select="number(substring-before($rest, ' bins over '))"/>
      <xsl:variable name="n" select="number(substring-before(substring-after($rest, ' bins over '), ' elements'))"/>
      <xsl:variable name="counts" select="normalize-space(substring-before(concat(substring-after($rest, '):'), '&#10;'), '&#10;'))"/>
      <xsl:if test="$bins &gt; 0 and $n &gt; 0">
        <figure class="chart badplot">
          <figcaption>Where the bad elements lie (output index 0 to <xsl:value-of select="format-number($n - 1, '#,##0')"/>, <xsl:value-of select="$bins"/> slices)</figcaption>
          <svg xmlns="http://www.w3.org/2000/svg" role="img" class="badplot" width="{$bins * 6 + 20}" height="74"
               viewBox="0 0 {$bins * 6 + 20} 74" data-k="bad-plot" data-elements="{$n}">
            <title>Bad elements by position</title>
            <rect x="0" y="8" width="{$bins * 6}" height="40" class="track"/>
            <xsl:call-template name="bad-bins">
              <xsl:with-param name="list" select="$counts"/>
              <xsl:with-param name="i" select="0"/>
              <xsl:with-param name="bins" select="$bins"/>
              <xsl:with-param name="n" select="$n"/>
            </xsl:call-template>
            <g class="axis">
              <text x="0" y="64">0</text>
              <text x="{$bins * 6}" y="64" text-anchor="end"><xsl:value-of select="format-number($n - 1, '#,##0')"/></text>
            </g>
          </svg>
        </figure>
      </xsl:if>
    </xsl:if>
  </xsl:template>
  <xsl:template name="bad-bins">
    <xsl:param name="list"/>
    <xsl:param name="i"/>
    <xsl:param name="bins"/>
    <xsl:param name="n"/>
    <xsl:if test="$list != '' and $i &lt; $bins">
      <xsl:variable name="c" select="number(substring-before(concat($list, ' '), ' '))"/>
      <xsl:variable name="from" select="floor($i * $n div $bins)"/>
      <xsl:variable name="to" select="floor(($i + 1) * $n div $bins)"/>
      <xsl:variable name="share">
        <xsl:choose>
          <xsl:when test="$to &gt; $from and $c &lt; $to - $from"><xsl:value-of select="$c div ($to - $from)"/></xsl:when>
          <xsl:otherwise>1</xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <xsl:if test="$c &gt; 0">
        <xsl:variable name="h" select="2 + round(38 * $share)"/>
        <rect xmlns="http://www.w3.org/2000/svg" x="{$i * 6}" y="{48 - $h}" width="5" height="{$h}"
              class="bar fail" data-bin="{$i}" data-n="{$c}">
          <title><xsl:value-of select="concat('elements ', $from, ' to ', $to - 1, ': ', $c, ' bad')"/></title>
        </rect>
      </xsl:if>
      <xsl:call-template name="bad-bins">
        <xsl:with-param name="list" select="substring-after($list, ' ')"/>
        <xsl:with-param name="i" select="$i + 1"/>
        <xsl:with-param name="bins" select="$bins"/>
        <xsl:with-param name="n" select="$n"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- one stage verdict: message, classify rule, figures, diagnostics -->
  <xsl:template match="*" mode="verdict">
    <div class="verdict {@outcome}">
      <p class="stage">
        <b><xsl:value-of select="local-name()"/></b>
        <xsl:text>: </xsl:text>
        <xsl:value-of select="@outcome"/>
        <xsl:if test="@category"> &#8212; <span class="cat"><xsl:value-of select="@category"/></span></xsl:if>
        <xsl:if test="@rule"> (classified by rule <code class="rule"><xsl:value-of select="@rule"/></code>)</xsl:if>
        <xsl:if test="@flags"> &#8212; flagged: <span class="tag suspect"><xsl:value-of select="@flags"/></span></xsl:if>
        <xsl:if test="@cycles">
          &#8212; <xsl:value-of select="format-number(@cycles, '#,##0')"/> cycles,
          <xsl:value-of select="format-number(@time-us, '#,##0.###')"/> &#181;s
        </xsl:if>
        <span class="dim"> (<xsl:value-of select="format-number(@wall-seconds, '0.000')"/> s)</span>
      </p>
      <xsl:if test="message"><p class="message"><xsl:value-of select="message"/></p></xsl:if>
      <xsl:if test="errors">
        <p class="errors">max abs error <xsl:value-of select="errors/@max-abs"/>,
          max rel error <xsl:value-of select="errors/@max-rel"/>,
          <xsl:value-of select="errors/@bad-count"/> bad elements, first at index
          <xsl:value-of select="errors/@first-index"/> (expected
          <xsl:value-of select="errors/@expected"/>, got <xsl:value-of select="errors/@actual"/>)</p>
      </xsl:if>
      <xsl:if test="defects">
        <p class="defects">Defects (contracts broken with no effect on the device's output; <code>--strict</code> fails them):</p>
        <pre class="defects"><xsl:value-of select="defects"/></pre>
      </xsl:if>
      <xsl:if test="details"><pre class="details"><xsl:value-of select="details"/></pre></xsl:if>
    </div>
  </xsl:template>

  <!-- ====================================================== metrics -->
  <!-- <metrics> is written by the C side from the run's journal (the
       figures of `npukb report`); numbers are shown as written there, a
       figure that is not available shows its reason (n<k, ...). Every cell
       carries data-k so tests can read it. -->
  <xsl:template match="metrics">
    <section id="metrics">
      <h2>Metrics</h2>
      <div class="scroll">
      <table class="metrics summary">
        <thead>
          <tr>
            <th>Level</th><th>Tasks</th><th>Samples</th>
            <th title="samples correct on every case">correct</th>
            <th title="correct samples with no defect listed (what --strict counts correct)">clean</th>
            <xsl:for-each select="aggregate[1]/compile">
              <th title="unbiased pass@k of compiling">compile@<xsl:value-of select="@k"/></th>
            </xsl:for-each>
            <xsl:for-each select="aggregate[1]/correct">
              <th title="unbiased pass@k of correctness">correct@<xsl:value-of select="@k"/></th>
            </xsl:for-each>
            <xsl:for-each select="aggregate[1]/fast">
              <th title="share of tasks with a correct sample faster than p x the answer">fast_<xsl:value-of select="@p"/></th>
            </xsl:for-each>
            <th title="geometric mean over correct timed samples">speedup</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="aggregate[@name != 'overall']">
            <xsl:call-template name="metrics-row"/>
          </xsl:for-each>
        </tbody>
        <tfoot>
          <xsl:for-each select="aggregate[@name = 'overall']">
            <xsl:call-template name="metrics-row"/>
          </xsl:for-each>
        </tfoot>
      </table>
      </div>
      <p class="note">
        <xsl:for-each select="npukernelbench-score | fast0-weighted-score | weighted-score[not(../npukernelbench-score or ../fast0-weighted-score)]">
          <xsl:variable name="k">
            <xsl:choose>
              <xsl:when test="local-name() = 'weighted-score'">m-weighted-score</xsl:when>
              <xsl:otherwise><xsl:value-of select="concat('m-', local-name())"/></xsl:otherwise>
            </xsl:choose>
          </xsl:variable>
          <xsl:if test="position() &gt; 1"><br/></xsl:if>
          <xsl:choose>
            <xsl:when test="local-name() = 'npukernelbench-score'">NPUKernelBench score (per task the share of its cases passed, averaged per level, 0.2 L1 + 0.3 L2 + 0.5 L3)</xsl:when>
            <xsl:when test="local-name() = 'fast0-weighted-score'">fast_0-weighted score (0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0)</xsl:when>
            <xsl:otherwise>Weighted score (0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0, over the levels present)</xsl:otherwise>
          </xsl:choose>
          <xsl:text>: </xsl:text>
          <strong data-k="{$k}" data-v="{@value}">
            <xsl:call-template name="figure">
              <xsl:with-param name="f" select="."/>
            </xsl:call-template>
          </strong>
          <xsl:if test="level">
            <xsl:text> </xsl:text>
            <span class="dim" data-k="{$k}-coverage">(<xsl:value-of select="concat(sum(level/@tasks-judged), ' of ', sum(level/@tasks), ' tasks judged')"/>)</span>
          </xsl:if>
          <xsl:if test="string(@coverage) != ''">
            <xsl:text> </xsl:text>
            <span class="dim">(coverage <xsl:call-template name="fmt"><xsl:with-param name="v" select="@coverage"/></xsl:call-template>)</span>
          </xsl:if>
          <xsl:if test="string(@levels-missing) != ''">
            <xsl:text> </xsl:text>
            <span class="na" data-k="{$k}-levels-missing">(missing: <xsl:value-of select="@levels-missing"/>)</span>
          </xsl:if>
        </xsl:for-each>
        <xsl:if test="aggregate[@name = 'overall']/@suspect-speedups &gt; 0">
          <xsl:text> </xsl:text>
          <span class="tag suspect" data-k="m-suspects">
            <xsl:value-of select="aggregate[@name = 'overall']/@suspect-speedups"/> suspect speedup(s) above
            <xsl:value-of select="@suspect-above"/>x</span>
        </xsl:if>
      </p>
      <xsl:for-each select="aggregate[category]">
        <p class="note">Failure shares, <xsl:value-of select="@name"/>:
          <xsl:for-each select="category">
            <xsl:if test="position() &gt; 1">, </xsl:if>
            <span class="cat"><xsl:value-of select="@name"/><xsl:text> </xsl:text>
              <span data-k="m-{../@name}-share-{@name}" data-v="{@share}">
                <xsl:call-template name="fmt"><xsl:with-param name="v" select="@share"/></xsl:call-template>
              </span>
              (<xsl:value-of select="@count"/>)</span>
          </xsl:for-each>
        </p>
      </xsl:for-each>
      <xsl:if test="speedups/speedup">
        <section class="charts">
          <xsl:call-template name="chart-speedups"/>
        </section>
      </xsl:if>
    </section>
  </xsl:template>

  <xsl:template name="metrics-row">
    <xsl:variable name="n" select="@name"/>
    <tr>
      <th scope="row"><xsl:value-of select="$n"/></th>
      <td data-k="m-{$n}-tasks"><xsl:value-of select="@tasks"/>
        <xsl:if test="@tasks-missing &gt; 0"> (<xsl:value-of select="@tasks-missing"/> missing)</xsl:if></td>
      <td data-k="m-{$n}-samples"><xsl:value-of select="@samples"/></td>
      <td data-k="m-{$n}-correct"><xsl:value-of select="@correct"/></td>
      <td data-k="m-{$n}-clean"><xsl:value-of select="@clean"/></td>
      <xsl:for-each select="compile">
        <td data-k="m-{$n}-compile-{@k}" data-v="{@value}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <xsl:for-each select="correct">
        <td data-k="m-{$n}-correct-{@k}" data-v="{@value}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <xsl:for-each select="fast">
        <td data-k="m-{$n}-fast-{@p}" data-v="{@value}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <td data-k="m-{$n}-speedup" data-v="{geomean-speedup/@value}">
        <xsl:call-template name="figure">
          <xsl:with-param name="f" select="geomean-speedup"/>
          <xsl:with-param name="kind" select="'speedup'"/>
        </xsl:call-template>
      </td>
    </tr>
  </xsl:template>

  <!-- a figure: its value, or its reason, marked as not available -->
  <xsl:template name="figure">
    <xsl:param name="f"/>
    <xsl:param name="kind" select="'share'"/>
    <xsl:choose>
      <xsl:when test="$f/@available = 'true'">
        <xsl:call-template name="fmt">
          <xsl:with-param name="v" select="$f/@value"/>
          <xsl:with-param name="kind" select="$kind"/>
        </xsl:call-template>
      </xsl:when>
      <!-- pass@k not available: no task had k samples; n<k as in the text report -->
      <xsl:when test="$f/@k"><span class="na" title="not available: {$f/@reason}">n&lt;k</span></xsl:when>
      <xsl:otherwise><span class="na" title="not available: {$f/@reason}">n/a</span></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Speedup distribution: correct timed samples in fixed bins (answer /
       sample); the last bin holds the suspect ones. -->
  <xsl:template name="chart-speedups">
    <xsl:variable name="v" select="speedups/speedup"/>
    <xsl:variable name="hi" select="number(@suspect-above)"/>
    <xsl:variable name="max">
      <xsl:for-each select="$v">
        <xsl:sort select="@value" data-type="number" order="descending"/>
        <xsl:if test="position() = 1"><xsl:value-of select="@value"/></xsl:if>
      </xsl:for-each>
    </xsl:variable>
    <figure class="chart">
      <figcaption>Speedup distribution (<xsl:value-of select="count($v)"/> correct timed samples)</figcaption>
      <svg xmlns="http://www.w3.org/2000/svg" role="img" class="speedups" width="460" height="190"
           viewBox="0 0 460 190" data-k="m-speedup-chart" data-count="{count($v)}">
        <title>Speedup distribution</title>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="0"/><xsl:with-param name="label" select="'&lt;0.5'"/>
          <xsl:with-param name="n" select="count($v[@value &lt;= 0.5])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="1"/><xsl:with-param name="label" select="'0.5-0.8'"/>
          <xsl:with-param name="n" select="count($v[@value &gt; 0.5 and @value &lt;= 0.8])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="2"/><xsl:with-param name="label" select="'0.8-1'"/>
          <xsl:with-param name="n" select="count($v[@value &gt; 0.8 and @value &lt;= 1])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="3"/><xsl:with-param name="label" select="'1-1.5'"/>
          <xsl:with-param name="n" select="count($v[@value &gt; 1 and @value &lt;= 1.5])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="4"/><xsl:with-param name="label" select="'1.5-2'"/>
          <xsl:with-param name="n" select="count($v[@value &gt; 1.5 and @value &lt;= 2])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="5"/><xsl:with-param name="label" select="concat('2-', $hi)"/>
          <xsl:with-param name="n" select="count($v[@value &gt; 2 and @value &lt;= $hi])"/>
          <xsl:with-param name="all" select="count($v)"/>
        </xsl:call-template>
        <xsl:call-template name="speedup-bin">
          <xsl:with-param name="i" select="6"/><xsl:with-param name="label" select="concat('&gt;', $hi, ' ?')"/>
          <xsl:with-param name="n" select="count($v[@value &gt; $hi])"/>
          <xsl:with-param name="all" select="count($v)"/>
          <xsl:with-param name="class" select="'fail'"/>
        </xsl:call-template>
        <g class="axis" transform="translate(0, 160)">
          <line x1="20" x2="450" y1="0" y2="0"/>
          <text x="20" y="26">answer / sample; max <xsl:value-of select="$max"/></text>
        </g>
      </svg>
    </figure>
  </xsl:template>
  <xsl:template name="speedup-bin">
    <xsl:param name="i"/>
    <xsl:param name="label"/>
    <xsl:param name="n"/>
    <xsl:param name="all"/>
    <xsl:param name="class" select="'correct'"/>
    <xsl:variable name="h">
      <xsl:choose>
        <xsl:when test="$all &gt; 0"><xsl:value-of select="round(120 * $n div $all)"/></xsl:when>
        <xsl:otherwise>0</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="x" select="24 + $i * 61"/>
    <rect xmlns="http://www.w3.org/2000/svg" x="{$x}" y="{160 - $h}" width="50" height="{$h}"
          class="bar {$class}" data-bin="{$i}" data-n="{$n}"/>
    <text xmlns="http://www.w3.org/2000/svg" x="{$x + 25}" y="{152 - $h}" text-anchor="middle" class="value"><xsl:value-of select="$n"/></text>
    <text xmlns="http://www.w3.org/2000/svg" x="{$x + 25}" y="174" text-anchor="middle" class="label"><xsl:value-of select="$label"/></text>
  </xsl:template>

</xsl:stylesheet>
