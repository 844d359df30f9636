import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical WCAG 2.1 A/AA violations axe finds on what the page shows now, one line
 * each; with label-in-name (2.5.3), which axe still files as experimental and runs only when asked.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const byTags = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const labelInName = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
  return [...byTags.violations, ...labelInName.violations]
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`));
}
