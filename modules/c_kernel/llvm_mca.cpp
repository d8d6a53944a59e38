// The LLVM-MCA plugin of hml.c_kernel (interface: llvm_mca_abi.h): LLVM's Machine Code Analyzer used as a
// library (libLLVMMCA, in Debian's libLLVM-19), never through the llvm-mca tool's text. It assembles the
// block with LLVM's x86 assembly parser, runs it `passes` times through MCA's default out-of-order
// pipeline on the scheduling model of the CPU named, and reports what llvm-mca's summary and resource
// pressure views would: the simulated cycles of all passes and each resource's cycles per pass.
#include "llvm_mca_abi.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstrAnalysis.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/MCA/Context.h>
#include <llvm/MCA/CustomBehaviour.h>
#include <llvm/MCA/HWEventListener.h>
#include <llvm/MCA/InstrBuilder.h>
#include <llvm/MCA/Pipeline.h>
#include <llvm/MCA/SourceMgr.h>
#include <llvm/MCA/Support.h>
#include <llvm/Support/Error.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Triple.h>

namespace {

constexpr const char* triple_name = "x86_64-unknown-linux-gnu";

int fail(hml_mca_report* out, const std::string& why) {
  std::snprintf(out->error, sizeof out->error, "%s", why.c_str());
  return 1;
}

// Collects the instructions the assembly parser emits; everything else a streamer does is not needed.
class instruction_collector final : public llvm::MCStreamer {
public:
  explicit instruction_collector(llvm::MCContext& context) : llvm::MCStreamer(context) {}
  std::vector<llvm::MCInst> instructions;

  void emitInstruction(const llvm::MCInst& instruction, const llvm::MCSubtargetInfo&) override {
    instructions.push_back(instruction);
  }
  bool emitSymbolAttribute(llvm::MCSymbol*, llvm::MCSymbolAttr) override { return true; }
  void emitCommonSymbol(llvm::MCSymbol*, uint64_t, llvm::Align) override {}
  void emitZerofill(llvm::MCSection*, llvm::MCSymbol*, uint64_t, llvm::Align, llvm::SMLoc) override {}
};

// Sums each processor resource's cycles over the simulation, as llvm-mca's resource pressure view does.
class pressure_listener final : public llvm::mca::HWEventListener {
public:
  explicit pressure_listener(const llvm::MCSchedModel& model) : cycles_(model.getNumProcResourceKinds(), 0.0) {}
  void onEvent(const llvm::mca::HWInstructionEvent& event) override {
    if (event.Type != llvm::mca::HWInstructionEvent::Issued) return;
    const auto& issued = static_cast<const llvm::mca::HWInstructionIssuedEvent&>(event);
    // A use names the processor resource by its index in the scheduling model, and one of its units.
    for (const llvm::mca::ResourceUse& use : issued.UsedResources)
      if (use.first.first < cycles_.size()) cycles_[use.first.first] += static_cast<double>(use.second);
  }
  [[nodiscard]] const std::vector<double>& cycles() const { return cycles_; }

private:
  std::vector<double> cycles_;
};

// llvm-mca's defaults: its pipeline takes the dispatch width, queue and buffer sizes from the scheduling
// model (0), assumes no aliasing between loads and stores, and gives a call 100 cycles.
constexpr unsigned from_the_model = 0;
constexpr bool assume_no_alias = true;
constexpr unsigned call_latency = 100;

int analyse(const char* block, const char* cpu, unsigned passes, hml_mca_report* out) {
  // LLVM's target registry is filled once: its registration is not safe to run on two threads at once.
  static std::once_flag targets;
  std::call_once(targets, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
  });
  const llvm::Triple triple{triple_name};
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple_name, error);
  if (target == nullptr) return fail(out, "LLVM has no x86-64 target: " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget{target->createMCSubtargetInfo(triple_name, cpu, "")};
  if (!subtarget || !subtarget->isCPUStringValid(cpu)) return fail(out, std::string{"LLVM knows no CPU named '"} + cpu + "'");
  if (!subtarget->getSchedModel().hasInstrSchedModel())
    return fail(out, std::string{"LLVM has no scheduling model for '"} + cpu + "'");
  const std::unique_ptr<llvm::MCRegisterInfo> registers{target->createMCRegInfo(triple_name)};
  const llvm::MCTargetOptions options;
  const std::unique_ptr<llvm::MCAsmInfo> asm_info{target->createMCAsmInfo(*registers, triple_name, options)};
  const std::unique_ptr<llvm::MCInstrInfo> instr_info{target->createMCInstrInfo()};
  const std::unique_ptr<llvm::MCInstrAnalysis> instr_analysis{target->createMCInstrAnalysis(instr_info.get())};

  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(block, "block"), llvm::SMLoc());
  std::string diagnostics;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic& d, void* text) {
        auto& s = *static_cast<std::string*>(text);
        if (s.empty()) s = d.getMessage().str() + " in '" + d.getLineContents().trim().str() + "'";
      },
      &diagnostics);
  llvm::MCContext context{triple, asm_info.get(), registers.get(), subtarget.get(), &sources};
  const std::unique_ptr<llvm::MCObjectFileInfo> object_info{target->createMCObjectFileInfo(context, false)};
  context.setObjectFileInfo(object_info.get());
  instruction_collector collector{context};
  collector.initSections(false, *subtarget);
  const std::unique_ptr<llvm::MCAsmParser> parser{llvm::createMCAsmParser(sources, context, collector, *asm_info)};
  const std::unique_ptr<llvm::MCTargetAsmParser> target_parser{
      target->createMCAsmParser(*subtarget, *parser, *instr_info, options)};
  if (!target_parser) return fail(out, "LLVM has no x86-64 assembly parser");
  parser->setTargetParser(*target_parser);
  if (parser->Run(false) || !diagnostics.empty())
    return fail(out, "LLVM cannot assemble the loop: " + (diagnostics.empty() ? std::string{"an error"} : diagnostics));
  if (collector.instructions.empty()) return fail(out, "the loop has no instructions");

  llvm::mca::InstrumentManager instruments{*subtarget, *instr_info};
  llvm::mca::InstrBuilder builder{*subtarget, *instr_info, *registers, instr_analysis.get(), instruments, call_latency};
  std::vector<std::unique_ptr<llvm::mca::Instruction>> lowered;
  const llvm::SmallVector<llvm::mca::Instrument*> no_instruments;
  for (const llvm::MCInst& instruction : collector.instructions) {
    llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> made = builder.createInstruction(instruction, no_instruments);
    if (!made) return fail(out, "LLVM-MCA cannot model an instruction: " + llvm::toString(made.takeError()));
    lowered.push_back(std::move(*made));
  }
  llvm::mca::CircularSourceMgr source{lowered, passes};
  llvm::mca::Context mca{*registers, *subtarget};
  const llvm::mca::PipelineOptions pipeline_options{from_the_model, from_the_model, from_the_model, from_the_model,
                                                    from_the_model, from_the_model, assume_no_alias, false};
  llvm::mca::CustomBehaviour behaviour{*subtarget, source, *instr_info};
  const std::unique_ptr<llvm::mca::Pipeline> pipeline = mca.createDefaultPipeline(pipeline_options, source, behaviour);
  const llvm::MCSchedModel& model = subtarget->getSchedModel();
  pressure_listener pressure{model};
  pipeline->addEventListener(&pressure);
  llvm::Expected<unsigned> cycles = pipeline->run();
  if (!cycles) return fail(out, "LLVM-MCA's simulation failed: " + llvm::toString(cycles.takeError()));

  out->instructions = static_cast<unsigned>(collector.instructions.size());
  out->total_cycles = static_cast<double>(*cycles);
  out->resources = 0;
  for (unsigned kind = 1; kind < model.getNumProcResourceKinds(); ++kind) {
    const llvm::MCProcResourceDesc& resource = *model.getProcResource(kind);
    // Groups are listed by their members, as llvm-mca lists them.
    if (resource.SubUnitsIdxBegin != nullptr || resource.NumUnits == 0) continue;
    if (out->resources == hml_mca_max_resources) return fail(out, "the scheduling model has too many resources");
    hml_mca_resource& r = out->resource[out->resources++];
    std::snprintf(r.name, sizeof r.name, "%s", resource.Name);
    r.units = resource.NumUnits;
    r.cycles_per_pass = pressure.cycles()[kind] / resource.NumUnits / passes;
  }
  return 0;
}

}  // namespace

extern "C" int hml_mca_host_cpu(char* out, unsigned size) {
  const llvm::StringRef name = llvm::sys::getHostCPUName();
  if (out == nullptr || name.empty() || name == "generic" || name.size() + 1 > size) return 1;
  std::snprintf(out, size, "%s", name.str().c_str());
  return 0;
}

extern "C" int hml_mca_analyse(const char* block, const char* cpu, unsigned passes, hml_mca_report* out) {
  *out = hml_mca_report{};
  if (block == nullptr || cpu == nullptr || passes == 0) return fail(out, "no block, CPU or passes");
  try {
    return analyse(block, cpu, passes, out);
  } catch (const std::exception& e) {
    return fail(out, std::string{"LLVM-MCA: "} + e.what());
  }
}
