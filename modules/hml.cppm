// hml — the whole library in one import, but for hml.probe (its own component: `import hml.probe;`).
export module hml;
export import hml.units;
export import hml.machine;
export import hml.workload;
export import hml.analysis;
export import hml.machine_description;
export import hml.catalog;
export import hml.catalog.lookup;
export import hml.operators;
export import hml.transformer;
export import hml.catalog.transformers;
export import hml.sweep;
export import hml.report;
