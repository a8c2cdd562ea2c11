<?xml version="1.0" encoding="UTF-8"?>
<!-- common.xsl - pieces every page of the run report shares: the page head,
     the provenance block, outcome badges. Input: results.xml (see
     core/lib/results_xml.h). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <!-- The HTML5 doctype: XSLT 1.0 cannot say it any other way. -->
  <xsl:template name="doctype">
    <xsl:text disable-output-escaping="yes">&lt;!DOCTYPE html&gt;&#10;</xsl:text>
  </xsl:template>

  <xsl:template name="head">
    <xsl:param name="title"/>
    <head>
      <!-- libxslt's html output writes the charset meta itself -->
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <!-- no favicon request: the report must work offline from file:// -->
      <link rel="icon" href="data:,"/>
      <link rel="stylesheet" href="style.css"/>
      <title><xsl:value-of select="$title"/></title>
    </head>
  </xsl:template>

  <xsl:template name="provenance">
    <xsl:variable name="p" select="/run/provenance"/>
    <section class="provenance" id="provenance">
      <h2>Provenance</h2>
      <dl>
        <dt>run</dt><dd data-k="run-id"><xsl:value-of select="/run/@id"/></dd>
        <dt>npukb</dt><dd data-k="npukb-version"><xsl:value-of select="$p/npukb/@version"/></dd>
        <dt>backend</dt><dd data-k="backend"><xsl:value-of select="$p/backend/@name"/></dd>
        <dt>toolchain</dt>
        <dd data-k="toolchain" class="mono"><xsl:value-of select="substring-before(concat($p/backend/@identity, '&#10;'), '&#10;')"/></dd>
        <dt>SoC</dt><dd data-k="soc"><xsl:value-of select="$p/soc/@name"/></dd>
        <xsl:if test="$p/sandbox">
          <dt>sandbox</dt><dd data-k="sandbox"><xsl:value-of select="$p/sandbox/@mode"/></dd>
        </xsl:if>
        <dt>seeds</dt>
        <dd data-k="seeds"><xsl:value-of select="$p/seeds/@count"/> per case, base <xsl:value-of select="$p/seeds/@base"/></dd>
        <dt>machine</dt>
        <dd data-k="machine">
          <xsl:value-of select="$p/machine/@host"/>
          <xsl:text>: </xsl:text>
          <xsl:value-of select="concat($p/machine/@cores, ' cores, ', $p/machine/@pus, ' threads, ', format-number($p/machine/@memory-gib, '0.0'), ' GiB memory')"/>
          <xsl:if test="$p/machine/@cpu-model">
            <xsl:text>, </xsl:text><xsl:value-of select="$p/machine/@cpu-model"/>
          </xsl:if>
          <xsl:if test="$p/machine/@os">
            <xsl:text>, </xsl:text><xsl:value-of select="$p/machine/@os"/>
          </xsl:if>
        </dd>
        <dt>date</dt>
        <dd data-k="date"><xsl:value-of select="$p/date/@started"/> (<xsl:value-of select="format-number($p/date/@wall-seconds, '0.0')"/> s)</dd>
      </dl>
    </section>
  </xsl:template>

  <!-- a verdict outcome as a coloured word -->
  <xsl:template name="badge">
    <xsl:param name="outcome"/>
    <xsl:param name="text" select="$outcome"/>
    <span class="badge {$outcome}"><xsl:value-of select="$text"/></span>
  </xsl:template>

  <!-- "1 task", "3 tasks" -->
  <xsl:template name="count-of">
    <xsl:param name="n"/>
    <xsl:param name="word"/>
    <xsl:value-of select="concat($n, ' ', $word)"/>
    <xsl:if test="$n != 1">s</xsl:if>
  </xsl:template>

  <!-- A figure as every page shows it: a share (pass@k, fast_p, scores,
       failure shares) as a percentage with one decimal ("5.4%"), a speedup
       with two decimals and an x ("1.23x"). The raw value stays in the
       data-v attribute of the element that shows it. Anything that is not
       a plain number is shown as written. -->
  <xsl:template name="fmt">
    <xsl:param name="v"/>
    <xsl:param name="kind" select="'share'"/>
    <xsl:choose>
      <xsl:when test="string(number($v)) = 'NaN'"><xsl:value-of select="$v"/></xsl:when>
      <xsl:when test="$kind = 'speedup'"><xsl:value-of select="format-number($v, '#,##0.00')"/>x</xsl:when>
      <xsl:otherwise><xsl:value-of select="format-number($v, '0.0%')"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="percent">
    <xsl:param name="part"/>
    <xsl:param name="whole"/>
    <xsl:choose>
      <xsl:when test="$whole &gt; 0"><xsl:value-of select="format-number($part div $whole, '0.0%')"/></xsl:when>
      <xsl:otherwise>&#8211;</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
