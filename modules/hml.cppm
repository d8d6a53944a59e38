// hml — the whole library in one import.
export module hml;
export import hml.units;
