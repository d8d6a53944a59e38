// hml — the whole library in one import, but for hml.probe (its own component: `import hml.probe;`).
export module hml;
export import hml.units;
export import hml.machine;
export import hml.workload;
export import hml.analysis;
export import hml.machine_description;
export import hml.link;
export import hml.tiers;
export import hml.offload;
export import hml.ecm;
export import hml.catalog;
export import hml.catalog.lookup;
export import hml.catalog.systems;
export import hml.catalog.cpus;
export import hml.sweep;
export import hml.report;
