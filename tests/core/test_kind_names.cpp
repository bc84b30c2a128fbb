// Each kind's one table of names (contract/kind_names.hpp): every kind
// named and read back, any other name refused naming the argument and
// listing the names, and a value outside the table a logic error, never
// another kind's name.
#include <stdexcept>
#include <string>

#include "encoder/attention_tasks.hpp"
#include "inspection/attention_row_steps.hpp"
#include "reference.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/tasks.hpp"
#include "training/optimizers.hpp"

namespace {
template <class Table>
void check_table(const Table& table, const char* argument, const std::string& listed) {
    INFO(argument);
    CHECK(table.argument == argument);
    CHECK(table.joined() == listed);
    for (const auto& [kind, name] : table.entries) {
        CHECK(table.name_of(kind) == name);
        CHECK(table.from_name(name) == kind);
    }
    CHECK(table.names().size() == table.entries.size());
    REQUIRE_ARGUMENT_ERROR_WITH(table.from_name("nope"), argument, "one of " + listed);
    REQUIRE_ARGUMENT_ERROR_WITH(table.from_name(""), argument, "one of " + listed);
    REQUIRE_ARGUMENT_ERROR(table.from_name(std::string(table.entries[0].second) + " "), argument);
}
}  // namespace

TEST_CASE("each kind's names come from its one table, and any other is refused by name", "[kinds]") {
    check_table(attention::optimizer_names, "optimizer", "adam, sgd");
    check_table(attention::attention_task_names, "task", "reverse, sort, shift, lookup");
    check_table(attention::seq2seq_task_names, "task", "numbers-en-zh, numbers-zh-en, dates, reverse, sort");
    check_table(attention::seq2seq_architecture_names, "architecture", "bahdanau, transformer");
    check_table(attention::seq2seq_attention_names, "attention", "cross, self");
}

TEST_CASE("a kind's value outside its table has no name: a logic error, not a default", "[kinds]") {
    CHECK_THROWS_AS(attention::optimizer_names.name_of(static_cast<attention::OptimizerKind>(7)), std::logic_error);
    CHECK_THROWS_AS(attention::seq2seq_architecture_names.name_of(static_cast<attention::Seq2SeqArchitecture>(5)),
                    std::logic_error);
}
