// File: tinygrad/engine/jit_graph_test.cc
// How a captured JIT's items are batched into device graphs (PlanGraphs), which kernels of a
// graph wait for which (GraphDependencies), and what a graph's run updates and counts, on a
// test device whose graphs record what they are given and run their launches in order.
// The CUDA graphs themselves: runtime/cuda/cuda_device_test (fake driver, and a real GPU);
// TinyJit on the fake CUDA device: tests/e2e/cuda_fake_tensor_test.
#include "tinygrad/engine/jit_graph.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/engine_stats.h"

namespace tg {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Launched {
  std::string program;
  std::vector<void*> bufs;
  std::vector<int64_t> vals;
  int graph = -1;  // which graph ran it; -1: launched alone
};

class RecordingProgram : public Program {
 public:
  RecordingProgram(std::string name, std::vector<Launched>* log)
      : name_(std::move(name)), log_(log) {}
  absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                             const LaunchDims&, const std::optional<LaunchDims>&, bool,
                             double) override {
    log_->push_back({name_, {bufs.begin(), bufs.end()}, {vals.begin(), vals.end()}});
    return 0.0;
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::vector<Launched>* log_;
};

// A graph that keeps its launches, takes updates, and on Run logs each launch as its program
// would, tagged with the graph's number.
class RecordingGraph : public KernelGraph {
 public:
  RecordingGraph(int id, std::vector<GraphLaunch> launches, std::vector<Launched>* log,
                 std::vector<size_t>* updates)
      : id_(id), launches_(std::move(launches)), log_(log), updates_(updates) {}
  absl::Status Update(size_t index, std::span<void* const> bufs, std::span<const int64_t> vals,
                      const LaunchDims&, const std::optional<LaunchDims>&) override {
    launches_.at(index).bufs.assign(bufs.begin(), bufs.end());
    launches_.at(index).vals.assign(vals.begin(), vals.end());
    updates_->push_back(index);
    return absl::OkStatus();
  }
  absl::StatusOr<double> Run(bool) override {
    for (const GraphLaunch& l : launches_)
      log_->push_back({static_cast<RecordingProgram*>(l.program)->name(), l.bufs, l.vals, id_});
    return 0.0;
  }
  const std::vector<GraphLaunch>& launches() const { return launches_; }

 private:
  int id_;
  std::vector<GraphLaunch> launches_;
  std::vector<Launched>* log_;
  std::vector<size_t>* updates_;
};

// Renders as the CPU does (no local sizes); buffers are the CPU's.
class GraphDevice : public Device {
 public:
  explicit GraphDevice(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  const Renderer& renderer() const override { return (*GetDevice("CPU"))->renderer(); }
  std::string compiler_id() const override { return "none"; }
  absl::StatusOr<std::string> Compile(const ProgramSpec&) override {
    return absl::UnimplementedError("no compiler");
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string&, const std::string&) override {
    return absl::UnimplementedError("no loader");
  }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t) override {
    return absl::UnimplementedError("buffers are the CPU's");
  }
  bool has_graphs() const override { return true; }
  absl::StatusOr<std::unique_ptr<KernelGraph>> MakeGraph(
      std::span<const GraphLaunch> launches) override {
    if (!graphs_work) return absl::UnavailableError("graphs refused today");
    auto g = std::make_unique<RecordingGraph>(
        static_cast<int>(graphs.size()), std::vector<GraphLaunch>(launches.begin(), launches.end()),
        &log, &updates);
    graphs.push_back(g.get());
    return g;
  }

  bool graphs_work = true;
  std::vector<RecordingGraph*> graphs;  // every graph made, in order
  std::vector<Launched> log;            // every launch, alone or in a graph
  std::vector<size_t> updates;          // launch indices updated, in order

 private:
  std::string name_;
};

std::shared_ptr<Buffer> Floats(int64_t n) {
  return std::make_shared<Buffer>("CPU", n, dtypes::float32);
}

class JitGraphTest : public ::testing::Test {
 protected:
  // A kernel that writes bufs[0] and reads the rest, on `dev`.
  ExecItem Kernel(Device* dev, std::vector<std::shared_ptr<Buffer>> bufs,
                  std::vector<UOp> vars = {}) {
    auto& r = runners_.emplace_back(std::make_unique<CompiledRunner>());
    r->spec.name = "k" + std::to_string(runners_.size() - 1);
    for (size_t i = 0; i < bufs.size(); ++i) r->spec.globals.push_back(static_cast<int64_t>(i));
    r->spec.outs = {0};
    for (size_t i = 1; i < bufs.size(); ++i) r->spec.ins.push_back(static_cast<int64_t>(i));
    r->spec.vars = std::move(vars);
    r->program = std::make_unique<RecordingProgram>(r->spec.name, &alone_);
    return ExecItem{
        .kind = ExecItem::Kind::kKernel, .device = dev, .runner = r.get(), .bufs = std::move(bufs)};
  }
  std::vector<std::unique_ptr<CompiledRunner>> runners_;
  std::vector<Launched> alone_;  // launches of programs run outside a graph
  GraphDevice dev_{"GRAPHS"};
};

// Which items each step runs: a graph's items, or one item.
std::vector<std::vector<size_t>> Steps(const std::vector<JitStep>& steps) {
  std::vector<std::vector<size_t>> out;
  for (const JitStep& s : steps)
    out.push_back(s.batch ? s.batch->items() : std::vector<size_t>{s.item});
  return out;
}

TEST_F(JitGraphTest, KernelsWaitForEarlierKernelsThatTouchTheirMemoryWhereOneWrites) {
  auto a = Floats(8), b = Floats(8), c = Floats(8), d = Floats(8);
  auto c_low = std::make_shared<Buffer>(c, 4, dtypes::float32, 0);
  auto c_high = std::make_shared<Buffer>(c, 4, dtypes::float32, 16);
  std::vector<ExecItem> items = {
      Kernel(&dev_, {a, b}),  // 0: a <- b
      Kernel(&dev_, {c, a}),  // 1: c <- a            (reads what 0 wrote)
      Kernel(&dev_, {d, b}),  // 2: d <- b            (b only read before: free)
      Kernel(&dev_, {b, d}),  // 3: b <- d            (overwrites what 0 and 2 read; reads 2's d)
      Kernel(&dev_, {c_low, d}),  // 4: c[0:4] <- d       (overwrites part of 1's c; reads 2's d)
      Kernel(&dev_,
             {a, c_high}),  // 5: a <- c[4:8]       (1 wrote it, 4 did not; a: 0 wrote, 1 read)
  };
  const std::vector<size_t> batch = {0, 1, 2, 3, 4, 5};
  std::vector<std::vector<size_t>> after = GraphDependencies(items, batch);
  EXPECT_THAT(after[0], IsEmpty());
  EXPECT_THAT(after[1], ElementsAre(0));
  EXPECT_THAT(after[2], IsEmpty());
  EXPECT_THAT(after[3], ElementsAre(0, 2));
  EXPECT_THAT(after[4], ElementsAre(1, 2));
  EXPECT_THAT(after[5], ElementsAre(0, 1));
}

TEST_F(JitGraphTest, BatchesDoubleFromTheBatchSizeAndCopiesEndThem) {
  auto x = Floats(4);
  std::vector<ExecItem> items;
  for (int i = 0; i < 5; ++i) items.push_back(Kernel(&dev_, {Floats(4), x}));
  absl::StatusOr<std::vector<JitStep>> steps = PlanGraphs(items, {}, {}, {.batch_size = 2}, {});
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_THAT(Steps(*steps), ElementsAre(ElementsAre(0, 1), ElementsAre(2, 3, 4)));

  // a copy ends a batch; a view does not; a kernel alone between copies is not graphed
  std::vector<ExecItem> mixed;
  mixed.push_back(Kernel(&dev_, {Floats(4), x}));                                    // 0
  mixed.push_back(Kernel(&dev_, {Floats(4), x}));                                    // 1
  mixed.push_back(ExecItem{.kind = ExecItem::Kind::kCopy, .bufs = {Floats(4), x}});  // 2
  mixed.push_back(Kernel(&dev_, {Floats(4), x}));                                    // 3
  mixed.push_back(ExecItem{.kind = ExecItem::Kind::kCopy, .bufs = {Floats(4), x}});  // 4
  mixed.push_back(Kernel(&dev_, {Floats(4), x}));                                    // 5
  mixed.push_back(ExecItem{.kind = ExecItem::Kind::kView, .bufs = {Floats(4), x}});  // 6
  mixed.push_back(Kernel(&dev_, {Floats(4), x}));                                    // 7
  steps = PlanGraphs(mixed, {}, {}, {.batch_size = 0}, {});
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_THAT(Steps(*steps), ElementsAre(ElementsAre(0, 1), ElementsAre(2), ElementsAre(3),
                                         ElementsAre(4), ElementsAre(6), ElementsAre(5, 7)));
}

TEST_F(JitGraphTest, OneKernelIsGraphedOnlyWhenAskedAndDevicesDoNotShareAGraph) {
  GraphDevice other("OTHER");
  auto x = Floats(4);
  std::vector<ExecItem> items = {Kernel(&dev_, {Floats(4), x}), Kernel(&other, {Floats(4), x}),
                                 Kernel(&other, {Floats(4), x})};
  absl::StatusOr<std::vector<JitStep>> steps = PlanGraphs(items, {}, {}, {}, {});
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_THAT(Steps(*steps), ElementsAre(ElementsAre(0), ElementsAre(1, 2)));
  EXPECT_EQ((*steps)[0].batch, nullptr);
  steps = PlanGraphs(items, {}, {}, {.one_kernel = true}, {});
  ASSERT_TRUE(steps.ok()) << steps.status();
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_NE((*steps)[0].batch, nullptr);
}

TEST_F(JitGraphTest, ADeviceWithoutGraphsOrAGraphRefusedRunsTheKernelsAlone) {
  Device* emulator = *GetDevice("PYTHON");  // no graphs, as the reference's PYTHON device
  ASSERT_FALSE(emulator->has_graphs());
  auto x = Floats(4);
  std::vector<ExecItem> plain = {Kernel(emulator, {Floats(4), x}), Kernel(emulator, {Floats(4), x})};
  ::testing::internal::CaptureStdout();
  absl::StatusOr<std::vector<JitStep>> steps = PlanGraphs(plain, {}, {.debug = 2}, {}, {});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "")
      << "a device without graphs: nothing to say";
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_THAT(Steps(*steps), ElementsAre(ElementsAre(0), ElementsAre(1)));

  dev_.graphs_work = false;
  std::vector<ExecItem> items = {Kernel(&dev_, {Floats(4), x}), Kernel(&dev_, {Floats(4), x})};
  ::testing::internal::CaptureStdout();
  steps = PlanGraphs(items, {}, {.debug = 2}, {}, {});
  EXPECT_THAT(
      ::testing::internal::GetCapturedStdout(),
      HasSubstr("JIT GRAPHing failed batch with 2 kernels on device GRAPHS: graphs refused today"));
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_THAT(Steps(*steps), ElementsAre(ElementsAre(0), ElementsAre(1)));
}

TEST_F(JitGraphTest, ARunUpdatesTheChangingLaunchesThenLaunchesTheGraphOnce) {
  auto in = Floats(4), mid = Floats(4), out = Floats(4);
  const UOp n = UOp::Variable("n", 1, 10);
  std::vector<ExecItem> items = {Kernel(&dev_, {mid, in}), Kernel(&dev_, {out, mid}),
                                 Kernel(&dev_, {Floats(4), mid}, {n})};
  const VarVals vars = {{"n", ConstValue(int64_t{3})}};
  ::testing::internal::CaptureStdout();
  absl::StatusOr<std::vector<JitStep>> steps = PlanGraphs(items, vars, {.debug = 2}, {}, {0, 2});
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("JIT GRAPHing batch with 3 kernels on device GRAPHS"));
  ASSERT_TRUE(steps.ok()) << steps.status();
  ASSERT_EQ(steps->size(), 1u);
  ASSERT_EQ(dev_.graphs.size(), 1u);
  const std::vector<GraphLaunch>& made = dev_.graphs[0]->launches();
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[0].bufs[1], in->data());
  EXPECT_THAT(made[1].after, ElementsAre(0));
  EXPECT_THAT(made[2].after, ElementsAre(0));
  EXPECT_THAT(made[2].vals, ElementsAre(3));

  // a replay's new input and variable value: only launches 0 and 2 are updated
  auto in2 = Floats(4);
  items[0].bufs[1] = in2;
  const int64_t kernels = GetEngineStats().kernel_count;
  ASSERT_TRUE((*steps)[0].batch->Run(items, {{"n", ConstValue(int64_t{7})}}, {}).ok());
  EXPECT_THAT(dev_.updates, ElementsAre(0, 2));
  EXPECT_EQ(GetEngineStats().kernel_count, kernels + 1) << "a graph counts as one run";
  ASSERT_EQ(dev_.log.size(), 3u);
  EXPECT_EQ(dev_.log[0].bufs[1], in2->data());
  EXPECT_THAT(dev_.log[2].vals, ElementsAre(7));
  for (const Launched& l : dev_.log) EXPECT_EQ(l.graph, 0);
  EXPECT_THAT(alone_, IsEmpty()) << "nothing launched outside the graph";
}

}  // namespace
}  // namespace tg
