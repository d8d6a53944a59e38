// hml.report — what the analyses look like on a page: the seed's text blocks, tables, CSV, JSON, SVG;
// kernel lists read from CSV.
export module hml.report;
export import hml.analysis;
export import :lab_text;
export import :table;
export import :csv;
export import :json;
export import :svg;
export import :file;
export import :kernels_csv;
export import :roofline_table;
