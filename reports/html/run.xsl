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
        <xsl:with-param name="title" select="concat('npukb run ', @id)"/>
      </xsl:call-template>
      <body>
        <header>
          <h1>npukb run report</h1>
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
  <xsl:template name="task-table">
    <section id="tasks">
      <h2>Tasks and samples</h2>
      <table class="tasks">
        <thead>
          <tr>
            <th>Task</th><th>Sample</th><th>Compile</th><th>Correctness</th>
            <th>Performance</th><th>Category</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="task">
            <xsl:variable name="rows" select="count(sample)"/>
            <xsl:for-each select="sample">
              <tr data-task="{../@id}" data-sample="{@id}">
                <xsl:if test="position() = 1">
                  <th scope="rowgroup" rowspan="{$rows}" class="task">
                    <span class="lvl">L<xsl:value-of select="../@level"/></span>
                    <xsl:text> </xsl:text>
                    <xsl:value-of select="../@category"/>/<b><xsl:value-of select="../@name"/></b>
                  </th>
                </xsl:if>
                <td>
                  <a href="{@page}"><xsl:value-of select="@id"/></a>
                  <xsl:if test="@answer = 'true'"><xsl:text> </xsl:text><span class="tag">answer</span></xsl:if>
                  <xsl:if test="case/*/@flags">
                    <xsl:text> </xsl:text>
                    <span class="tag suspect" title="{case/*[@flags][1]/@flags}">suspect</span>
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
                      <xsl:variable name="np" select="count(case[@outcome = 'pass'])"/>
                      <xsl:call-template name="badge">
                        <xsl:with-param name="outcome">
                          <xsl:choose>
                            <xsl:when test="case[@outcome = 'fail']">fail</xsl:when>
                            <xsl:when test="case[@outcome = 'skipped']">skipped</xsl:when>
                            <xsl:otherwise>pass</xsl:otherwise>
                          </xsl:choose>
                        </xsl:with-param>
                        <xsl:with-param name="text" select="concat($np, '/', count(case), ' cases')"/>
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
                </td>
              </tr>
            </xsl:for-each>
          </xsl:for-each>
        </tbody>
      </table>
    </section>
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
              </article>
            </xsl:for-each>
          </section>
          <xsl:call-template name="provenance"/>
        </main>
      </body>
    </html>
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
      <p class="note">Weighted score (0.2 L1 + 0.3 L2 + 0.5 L3 of fast_0, over the levels present):
        <strong data-k="m-weighted-score">
          <xsl:call-template name="figure">
            <xsl:with-param name="f" select="weighted-score"/>
          </xsl:call-template>
        </strong>
        <xsl:if test="string(weighted-score/@levels-missing) != ''">
          <xsl:text> </xsl:text>
          <span class="na" data-k="m-levels-missing">(missing: <xsl:value-of select="weighted-score/@levels-missing"/>)</span>
        </xsl:if>
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
              <span data-k="m-{../@name}-share-{@name}"><xsl:value-of select="@share"/></span>
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
      <xsl:for-each select="compile">
        <td data-k="m-{$n}-compile-{@k}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <xsl:for-each select="correct">
        <td data-k="m-{$n}-correct-{@k}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <xsl:for-each select="fast">
        <td data-k="m-{$n}-fast-{@p}">
          <xsl:call-template name="figure"><xsl:with-param name="f" select="."/></xsl:call-template>
        </td>
      </xsl:for-each>
      <td data-k="m-{$n}-speedup">
        <xsl:call-template name="figure"><xsl:with-param name="f" select="geomean-speedup"/></xsl:call-template>
      </td>
    </tr>
  </xsl:template>

  <!-- a figure: its value, or its reason, marked as not available -->
  <xsl:template name="figure">
    <xsl:param name="f"/>
    <xsl:choose>
      <xsl:when test="$f/@available = 'true'"><xsl:value-of select="$f/@value"/></xsl:when>
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
