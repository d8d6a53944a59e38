// hml.analysis — how long a kernel takes on a machine and what limits it.
export module hml.analysis;
export import hml.machine;
export import :time_model;
export import :roofline;
export import :measured;
