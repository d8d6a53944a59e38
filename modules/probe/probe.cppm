// hml.probe — measures this machine: bandwidth over working sets from L1 to DRAM and the peak FMA rate on
// every core, turned into a machine description the models accept (a memory, a compute core, a roof and
// one bandwidth ceiling per cache level for the hierarchical roofline).
export module hml.probe;
export import hml.analysis;
export import :plateaus;
export import :host;
