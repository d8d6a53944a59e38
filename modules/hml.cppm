// hml — the whole library in one import.
export module hml;
export import hml.units;
export import hml.machine;
export import hml.workload;
export import hml.analysis;
export import hml.probe;
export import hml.catalog;
export import hml.catalog.lookup;
export import hml.sweep;
export import hml.report;
