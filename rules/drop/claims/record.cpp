#include "rules/drop/claims/record.h"

#include <fstream>

namespace solver::claims {

namespace {

[[noreturn]] void refuse_report(const std::filesystem::path& file, const std::string& why) {
  throw ClaimsRecordRefused("claims: " + file.string() +
                            " holds a report this run would replace (" + why +
                            "); write elsewhere with --out DIR, or replace it with --fresh");
}

}  // namespace

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const auto temporary = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
}

ClaimsRecord::ClaimsRecord(std::filesystem::path path, const std::string& variant, bool fresh,
                           const json& planned)
    : path_(std::move(path)) {
  const auto report = std::filesystem::path(path_).replace_extension(".md");
  if (!fresh && std::filesystem::exists(path_)) {
    std::ifstream in(path_);
    try {
      data_ = json::parse(in);
    } catch (const json::exception&) {
      refuse("it cannot be read as a claims record");
    }
    if (data_.value("variant", "") != variant || data_.value("format", 0) != kFormat)
      refuse("it is a record of another variant or an older version of this command");
    if (data_.contains("sections"))
      for (const auto& [name, params] : planned.items())
        if (const json* s = find(name);
            s && s->value("complete", false) && s->value("params", json()) != params)
          refuse("its section " + name + " was counted with " + s->at("params").dump() +
                 ", this run asks for " + params.dump());
  } else if (!fresh && std::filesystem::exists(report)) {
    refuse_report(report, "there is no record of how it was made beside it");
  }
  data_["variant"] = variant;
  data_["format"] = kFormat;
  if (!data_.contains("sections")) data_["sections"] = json::object();
}

const json* ClaimsRecord::finished(const std::string& section, const json& params) const {
  const json* s = partial(section, params);
  return s && s->value("complete", false) ? s : nullptr;
}

const json* ClaimsRecord::partial(const std::string& section, const json& params) const {
  const json* s = find(section);
  return s && s->value("params", json()) == params ? s : nullptr;
}

void ClaimsRecord::store(const std::string& section, const json& value) {
  data_["sections"][section] = value;
  save();
}

void ClaimsRecord::save() const {
  write_atomically(path_, data_.dump(1) + "\n");
}

const json* ClaimsRecord::find(const std::string& section) const {
  const json& sections = data_["sections"];
  return sections.contains(section) ? &sections[section] : nullptr;
}

void ClaimsRecord::refuse(const std::string& why) const {
  refuse_report(path_, why);
}

json count_strings(const std::vector<Count>& counts) {
  json a = json::array();
  for (Count c : counts) a.push_back(to_decimal(c));
  return a;
}

Count count_at(const json& array, std::size_t i) {
  return parse_count(array.at(i).get<std::string>());
}

}  // namespace solver::claims
