// hml.probe — measures this machine: bandwidth over working sets from L1 to DRAM and the peak FMA rate on
// every core, as a host_machine the models accept (a memory, a compute core, a roof, one bandwidth ceiling
// per cache level for the hierarchical roofline) and as a machine description (host_machine::description).
export module hml.probe;
export import hml.machine_description;
export import :plateaus;
export import :host;
