// xeus_glue.cpp — ag-kernel's main: the Jupyter protocol from xeus, the Ag
// session from kernel.c (kernel.h). xeus does the sockets, HMAC signing,
// heartbeat, message parsing and replies; this file only maps each request
// onto the kernel.h call that answers it.
#include <fnmatch.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "xeus/xeus_context.hpp"
#include "xeus/xhelper.hpp"
#include "xeus/xinterpreter.hpp"
#include "xeus/xkernel.hpp"
#include "xeus/xkernel_configuration.hpp"
#include "xeus/xserver_zmq.hpp"
#include "xeus/xzmq_serializer.hpp"
#include "zmq_addon.hpp"

#include "kernel/kernel.h"

namespace {

std::vector<std::string> split_lines(const char *text) {
  std::vector<std::string> lines;
  const char *p = text ? text : "";
  while (*p != '\0') {
    size_t n = std::strcspn(p, "\n");
    lines.emplace_back(p, n);
    p += n;
    if (*p == '\n') p++;
  }
  return lines;
}

class AgInterpreter : public xeus::xinterpreter {
public:
  AgInterpreter() {
    AgKernelOutput out = {this, on_stream, on_display, on_display_in_place};
    kernel_ = agk_new(&out);
  }
  ~AgInterpreter() override { agk_free(kernel_); }

private:
  AgKernel *kernel_;
  int execution_count_ = 0;

  static void on_stream(void *ctx, const char *name, const char *text, size_t length) {
    static_cast<AgInterpreter *>(ctx)->publish_stream(name, std::string(text, length));
  }

  static void on_display(void *ctx, bool result, int count, const char *const *types,
                         const char *const *data, const size_t *lengths) {
    auto *self = static_cast<AgInterpreter *>(ctx);
    nl::json bundle = bundle_of(count, types, data, lengths);
    if (result) self->publish_execution_result(self->execution_count_, bundle, nl::json::object());
    else self->display_data(bundle, nl::json::object(), nl::json::object());
  }

  static nl::json bundle_of(int count, const char *const *types, const char *const *data,
                            const size_t *lengths) {
    nl::json bundle = nl::json::object();
    for (int i = 0; i < count; i++) bundle[types[i]] = std::string(data[i], lengths[i]);
    return bundle;
  }

  static void on_display_in_place(void *ctx, const char *id, bool update, int count,
                                  const char *const *types, const char *const *data,
                                  const size_t *lengths) {
    auto *self = static_cast<AgInterpreter *>(ctx);
    nl::json transient = {{"display_id", id}};
    nl::json bundle = bundle_of(count, types, data, lengths);
    if (update) self->update_display_data(bundle, nl::json::object(), transient);
    else self->display_data(bundle, nl::json::object(), transient);
  }

  void configure_impl() override {}

  nl::json execute_request_impl(int execution_count, const std::string &code, bool silent,
                                bool store_history, nl::json user_expressions,
                                bool allow_stdin) override {
    execution_count_ = execution_count;
    AgCell cell;
    agk_execute(kernel_, code.c_str(), execution_count, silent, &cell);
    nl::json reply;
    if (cell.ok) {
      reply["status"] = "ok";
      reply["payload"] = nl::json::array();
      reply["user_expressions"] = nl::json::object();
    } else {
      std::vector<std::string> traceback = split_lines(cell.traceback);
      if (!silent) publish_execution_error(cell.ename, cell.evalue, traceback);
      reply["status"] = "error";
      reply["ename"] = cell.ename;
      reply["evalue"] = cell.evalue;
      reply["traceback"] = traceback;
    }
    reply["execution_count"] = execution_count;
    agk_cell_free(&cell);
    return reply;
  }

  nl::json complete_request_impl(const std::string &code, int cursor_pos) override {
    size_t cursor = agk_byte_offset(code.c_str(), cursor_pos < 0 ? 0 : (size_t)cursor_pos);
    size_t start = 0, count = 0;
    char **matches = agk_complete(kernel_, code.c_str(), cursor, &start, &count);
    nl::json list = nl::json::array();
    for (size_t i = 0; i < count; i++) list.push_back(matches[i]);
    agk_strings_free(matches, count);
    nl::json reply;
    reply["status"] = "ok";
    reply["matches"] = list;
    reply["cursor_start"] = agk_code_points(code.c_str(), start);
    reply["cursor_end"] = agk_code_points(code.c_str(), cursor);
    reply["metadata"] = nl::json::object();
    return reply;
  }

  nl::json inspect_request_impl(const std::string &code, int cursor_pos,
                                int detail_level) override {
    size_t cursor = agk_byte_offset(code.c_str(), cursor_pos < 0 ? 0 : (size_t)cursor_pos);
    char *text = agk_inspect(kernel_, code.c_str(), cursor);
    nl::json reply;
    reply["status"] = "ok";
    reply["found"] = text != nullptr;
    reply["data"] = nl::json::object();
    if (text != nullptr) reply["data"]["text/plain"] = std::string(text);
    reply["metadata"] = nl::json::object();
    std::free(text);
    return reply;
  }

  nl::json is_complete_request_impl(const std::string &code) override {
    nl::json reply;
    std::string status = agk_is_complete(kernel_, code.c_str());
    reply["status"] = status;
    if (status == "incomplete") reply["indent"] = "";
    return reply;
  }

  nl::json kernel_info_request_impl() override {
    nl::json info = xeus::create_info_reply(
        "5.3", "ag-kernel", agk_version(), "ag", agk_version(), "text/x-ag", ".ag", "", "", "",
        std::string("Ag ") + agk_version() + ": tensors and autograd in a small language");
    info["language_info"]["codemirror_mode"] = "python";
    info["language_info"]["pygments_lexer"] = "python";
    return info;
  }

  void shutdown_request_impl() override {}
};

// xeus's server with a stricter reading of each request, and aborts that
// never lose a message.
//
// A message with too few frames after the delimiter (which xeus 2.4's parser
// reads past) or one that fails to parse or verify is logged and dropped, and
// the kernel goes on.
//
// stop_on_error: when an execute_request fails, the requests queued behind
// it are aborted. xeus 2.4 does it after sending the error reply, so a client
// that answers that reply at once with its next cell could see the cell
// aborted, and with a reply xeus forms badly (status "error" with no ename,
// no busy/idle on iopub): jupyter_client and nbclient then wait for ever.
// Here the requests already waiting are taken off the socket just before
// the error reply goes out and held; each held execute_request is then
// answered "aborted" with its busy and idle status, the others are handled
// as usual. What the client sends after it has the error reply always runs.
class AgServer : public xeus::xserver_zmq {
public:
  AgServer(zmq::context_t &context, const xeus::xconfiguration &config,
           nl::json::error_handler_t eh)
      : xserver_zmq(context, config, eh) {}

protected:
  void start_impl(xeus::xpub_message message) override {
    start_publisher_thread();
    start_heartbeat_thread();
    m_request_stop = false;
    publish(std::move(message), xeus::channel::SHELL);
    while (!m_request_stop) {
      if (held_.empty()) poll_checked();
      else handle_held();
    }
    stop_channels();
    std::exit(0);
  }

  void send_shell_impl(xeus::xmessage message) override {
    if (aborts_queue(message)) hold_waiting_requests();
    xserver_zmq::send_shell_impl(std::move(message));
  }

  // Done by send_shell_impl, before the error reply leaves.
  void abort_queue_impl(const listener &, long) override {}

  void publish_impl(xeus::xpub_message message, xeus::channel c) override {
    if (message.header().value("msg_type", "") == "status") {
      status_topic_ = message.topic();
      status_header_ = message.header();
    }
    xserver_zmq::publish_impl(std::move(message), c);
  }

private:
  std::deque<xeus::xmessage> held_;
  bool stop_on_error_ = false;  // of the execute_request being handled
  std::string status_topic_;    // xeus's own status messages, as models
  nl::json status_header_;

  static bool is_execute_request(const xeus::xmessage &message) {
    return message.header().value("msg_type", "") == "execute_request";
  }

  // An error reply to an execute_request that asked to stop on error.
  bool aborts_queue(const xeus::xmessage &reply) const {
    return stop_on_error_ && reply.header().value("msg_type", "") == "execute_reply" &&
           reply.content().value("status", "") == "error";
  }

  void hold_waiting_requests() {
    xeus::xmessage message;
    bool more = true;
    while (more) {
      zmq::pollitem_t item = {m_shell, 0, ZMQ_POLLIN, 0};
      more = zmq::poll(&item, 1, std::chrono::milliseconds(0)) > 0;
      if (more && receive(m_shell, &message)) held_.push_back(std::move(message));
    }
  }

  void handle_held() {
    xeus::xmessage message = std::move(held_.front());
    held_.pop_front();
    if (is_execute_request(message)) send_aborted(message);
    else dispatch_shell(std::move(message));
  }

  nl::json header(const std::string &msg_type) const {
    return xeus::make_header(msg_type, status_header_.value("username", ""),
                             status_header_.value("session", ""));
  }

  void publish_status(const xeus::xmessage &parent, const char *state) {
    publish_impl(xeus::xpub_message(status_topic_, header("status"), parent.header(),
                                    nl::json::object(), {{"execution_state", state}},
                                    xeus::buffer_sequence()),
                 xeus::channel::SHELL);
  }

  // What ipykernel sends for a request it aborts: busy, the reply, idle.
  void send_aborted(const xeus::xmessage &request) {
    publish_status(request, "busy");
    nl::json content = {{"status", "aborted"}};
    xserver_zmq::send_shell_impl(xeus::xmessage(request.identities(), header("execute_reply"),
                                                request.header(), content, content,
                                                xeus::buffer_sequence()));
    publish_status(request, "idle");
  }

  void dispatch_shell(xeus::xmessage message) {
    if (is_execute_request(message)) {
      const nl::json &content = message.content();
      stop_on_error_ = content.value("stop_on_error", false) && !content.value("silent", false);
    }
    xserver::notify_shell_listener(std::move(message));
  }

  // <IDS|MSG>, then signature, header, parent header, metadata, content.
  static bool well_formed(const zmq::multipart_t &wire) {
    for (size_t i = 0; i < wire.size(); i++) {
      if (wire[i].to_string() == "<IDS|MSG>") return wire.size() - i - 1 >= 5;
    }
    return false;
  }

  // The message on `socket`, verified and parsed; false when it was dropped.
  bool receive(zmq::socket_t &socket, xeus::xmessage *out) {
    zmq::multipart_t wire;
    if (!wire.recv(socket)) return false;
    if (!well_formed(wire)) {
      std::fprintf(stderr, "ag-kernel: message dropped: not a Jupyter message (too few frames)\n");
      return false;
    }
    try {
      *out = xeus::xzmq_serializer::deserialize(wire, *p_auth);
      return true;
    } catch (const std::exception &e) {
      std::fprintf(stderr, "ag-kernel: message dropped: %s\n", e.what());
      return false;
    }
  }

  void poll_checked() {
    zmq::pollitem_t items[] = {{m_controller, 0, ZMQ_POLLIN, 0}, {m_shell, 0, ZMQ_POLLIN, 0}};
    try {
      zmq::poll(&items[0], 2, std::chrono::milliseconds(-1));
    } catch (const zmq::error_t &e) {
      if (e.num() != EINTR) throw;
      return;
    }
    xeus::xmessage msg;
    if ((items[0].revents & ZMQ_POLLIN) && receive(m_controller, &msg))
      xserver::notify_control_listener(std::move(msg));
    if (!m_request_stop && (items[1].revents & ZMQ_POLLIN) && receive(m_shell, &msg))
      dispatch_shell(std::move(msg));
  }
};

std::unique_ptr<xeus::xserver> make_ag_server(xeus::xcontext &context,
                                              const xeus::xconfiguration &config,
                                              nl::json::error_handler_t eh) {
  return std::unique_ptr<xeus::xserver>(
      new AgServer(context.get_wrapped_context<zmq::context_t>(), config, eh));
}

// The inputs of this session, answering history_request as the protocol
// says (xeus's in-memory manager returns flat rows where the protocol has
// [input, output] pairs).
class AgHistory : public xeus::xhistory_manager {
  struct Entry {
    int session, line;
    std::string input, output;
  };
  std::vector<Entry> entries_;

  void configure_impl() override {}

  // Lines are numbered here: xeus 2.4 passes the same number for every input.
  void store_inputs_impl(int session, int line, const std::string &input,
                         const std::string &output) override {
    entries_.push_back({session, (int)entries_.size() + 1, input, output});
  }

  static nl::json row(const Entry &e, bool output) {
    if (output) return nl::json::array({e.session, e.line, nl::json::array({e.input, e.output})});
    return nl::json::array({e.session, e.line, e.input});
  }

  static nl::json reply(nl::json rows) {
    nl::json r;
    r["status"] = "ok";
    r["history"] = std::move(rows);
    return r;
  }

  nl::json get_tail_impl(int n, bool raw, bool output) const override {
    nl::json rows = nl::json::array();
    size_t first = n >= 0 && (size_t)n < entries_.size() ? entries_.size() - (size_t)n : 0;
    for (size_t i = first; i < entries_.size(); i++) rows.push_back(row(entries_[i], output));
    return reply(rows);
  }

  nl::json get_range_impl(int session, int start, int stop, bool raw,
                          bool output) const override {
    nl::json rows = nl::json::array();
    for (const Entry &e : entries_) {
      if (e.session == session && e.line >= start && e.line < stop) rows.push_back(row(e, output));
    }
    return reply(rows);
  }

  // The last n inputs matching the glob `pattern`, each once when unique.
  nl::json search_impl(const std::string &pattern, bool raw, bool output, int n,
                       bool unique) const override {
    std::vector<const Entry *> found;
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (n > 0 && (int)found.size() >= n) break;
      if (fnmatch(pattern.c_str(), it->input.c_str(), 0) != 0) continue;
      bool seen = false;
      for (const Entry *f : found) seen = seen || (unique && f->input == it->input);
      if (!seen) found.push_back(&*it);
    }
    nl::json rows = nl::json::array();
    for (auto it = found.rbegin(); it != found.rend(); ++it) rows.push_back(row(**it, output));
    return reply(rows);
  }
};

std::string connection_file(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++) {
    if (std::strcmp(argv[i], "-f") == 0) return argv[i + 1];
  }
  return "";
}

}  // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("ag-kernel %s\n", agk_version());
      return 0;
    }
  }
  std::string file = connection_file(argc, argv);
  if (file.empty()) {
    std::fprintf(stderr, "usage: ag-kernel -f CONNECTION_FILE (started by Jupyter; see "
                         "`jupyter kernelspec list`)\n");
    return 2;
  }
  xeus::xconfiguration config;
  try {
    config = xeus::load_configuration(file);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "ag-kernel: cannot read the connection file %s: %s\n", file.c_str(),
                 e.what());
    return 2;
  }
  auto context = xeus::make_context<zmq::context_t>();
  // The interpreter first: it blocks SIGINT before xeus starts its threads.
  std::unique_ptr<xeus::xinterpreter> interpreter(new AgInterpreter());
  xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                       make_ag_server, std::unique_ptr<xeus::xhistory_manager>(new AgHistory()), nullptr,
                       xeus::make_null_debugger, nl::json::object(),
                       nl::json::error_handler_t::replace);
  kernel.start();
  return 0;
}
