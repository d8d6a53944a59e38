// hml.sweep — parameter sweeps over typed axes: linear and logarithmic ranges of any hml quantity (or
// double), explicit value lists, and grids of several axes; evaluated into constexpr arrays at compile
// time or lazily with range-v3 at run time (the same values on both paths), plus crossovers in closed form.
export module hml.sweep;
export import hml.analysis;
export import :axis;
export import :axis_text;
export import :compile_time;
export import :run_time;
export import :crossover;
