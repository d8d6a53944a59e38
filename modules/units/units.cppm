// hml.units — bytes, bits, seconds and FLOP as types: a Gbit/GB or FLOP/FLOPS mix-up does not compile.
export module hml.units;
export import :core;
export import :literals;
export import :text;
export import :symbols;
export import :parse;
