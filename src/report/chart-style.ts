/**
 * The look every report chart shares (Vega-Lite `config`), apart from the rendering code so that
 * spec builders can use it without loading Vega.
 */

/** The shared Vega-Lite config: white background, sans-serif, light grid. */
export const CHART_CONFIG = {
  background: 'white',
  font: 'sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#eee' },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 13, anchor: 'start' as const },
  view: { stroke: '#ddd' },
};

/**
 * The colour encoding of a chart with one mark per arm: each arm in its report-wide colour
 * (`colors`, grey for an arm not in it), in the given order.
 */
export function armColorEncoding(arms: readonly string[], colors: Map<string, string>) {
  return {
    field: 'arm',
    type: 'nominal' as const,
    title: 'arm',
    sort: [...arms],
    scale: { domain: [...arms], range: arms.map((a) => colors.get(a) ?? '#999') },
  };
}
