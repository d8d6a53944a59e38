#include "compile_command.hpp"

#include <cstddef>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace compile_cost {

compile_command find_compile_command(const std::filesystem::path& database, const std::filesystem::path& object) {
  std::ifstream in{database};
  if (!in) throw std::runtime_error("cannot read '" + database.string() + "'");
  const nlohmann::json entries = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!entries.is_array()) throw std::runtime_error("'" + database.string() + "' is not a compilation database");
  const std::filesystem::path wanted = object.lexically_normal();  // CMake may write "dir/./file.o"
  for (const nlohmann::json& entry : entries) {
    if (std::filesystem::path{entry.value("output", "")}.lexically_normal() == wanted) {
      return {entry.at("directory").get<std::string>(), entry.at("command").get<std::string>()};
    }
  }
  throw std::runtime_error("'" + database.string() + "' has no command that writes '" + object.string() +
                           "': build its target first");
}

compile_command writing_to(compile_command c, const std::filesystem::path& object) {
  constexpr std::string_view flag = " -o ";
  const std::size_t at = c.command.find(flag);
  if (at == std::string::npos) throw std::runtime_error("no `-o` in the command `" + c.command + "`");
  const std::size_t begin = at + flag.size();
  const std::size_t end = c.command.find(' ', begin);
  c.command.replace(begin, end == std::string::npos ? std::string::npos : end - begin, object.string());
  return c;
}

compile_command with_flags(compile_command c, std::string_view flags) {
  c.command.append(" ").append(flags);
  return c;
}

}  // namespace compile_cost
