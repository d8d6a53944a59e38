// hml.report — what the analyses look like on a page: the seed's text blocks, tables, CSV, JSON, SVG, the
// catalog as a table; kernel lists and measured serving runs read from CSV, machine descriptions from JSON.
export module hml.report;
export import hml.analysis;
export import hml.catalog.lookup;
export import :lab_text;
export import :table;
export import :csv;
export import :json;
export import :svg;
export import :file;
export import :kernels_csv;
export import :roofline_table;
export import :device_table;
export import :time_columns;
export import :device_file;
export import :device_json;
export import :ecm_files;
export import :machine_yaml;
export import :machine_file;
export import :measured_runs_csv;
