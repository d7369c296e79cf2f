#include "rules/drop/claims/machine.h"

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "rules/drop/claims/text.h"
#include "solver/process_resources.h"

namespace solver::claims {

namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

}  // namespace

void reset_peak_memory() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

double section_peak_memory_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return peak_memory_mb();
}

double load_average() {
  double load[1] = {0};
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

std::string machine_line() {
  return cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " +
         fixed(double(physical_memory_mb()) / 1024.0, 1) + " GiB";
}

}  // namespace solver::claims
