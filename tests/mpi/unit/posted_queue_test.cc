// The engine's queue of posted receives: oldest match first, removal from anywhere, and
// a request is in it at most once.
#include "mpi/core/posted_queue.h"

#include <catch2/catch.hpp>
#include <vector>

using zmpi::mpi::PostedQueue;
using zmpi::mpi::Request;

namespace {

std::vector<int> tagsInOrder(PostedQueue& queue) {
  std::vector<int> tags;
  while (Request* request = queue.takeFirst([](const Request&) { return true; })) tags.push_back(request->tag);
  return tags;
}

}  // namespace

TEST_CASE("posted receives match oldest first", "[posted]") {
  PostedQueue queue;
  Request a(Request::Kind::Recv), b(Request::Kind::Recv), c(Request::Kind::Recv);
  a.tag = 1;
  b.tag = 2;
  c.tag = 1;
  queue.push(a);
  queue.push(b);
  queue.push(c);
  CHECK(queue.takeFirst([](const Request& r) { return r.tag == 1; }) == &a);
  CHECK_FALSE(a.isPosted);
  CHECK(queue.takeFirst([](const Request& r) { return r.tag == 1; }) == &c);
  CHECK(queue.takeFirst([](const Request& r) { return r.tag == 1; }) == nullptr);
  CHECK(tagsInOrder(queue) == std::vector<int>{2});
}

TEST_CASE("a posted receive is removed from the head, middle or tail", "[posted]") {
  for (int removed = 0; removed < 3; ++removed) {
    PostedQueue queue;
    Request requests[3] = {Request(Request::Kind::Recv), Request(Request::Kind::Recv), Request(Request::Kind::Recv)};
    for (int i = 0; i < 3; ++i) {
      requests[i].tag = i;
      queue.push(requests[i]);
    }
    CHECK(queue.remove(requests[removed]));
    CHECK_FALSE(queue.remove(requests[removed]));  // a cancel racing a match finds nothing
    std::vector<int> expected;
    for (int i = 0; i < 3; ++i) {
      if (i != removed) expected.push_back(i);
    }
    CHECK(tagsInOrder(queue) == expected);
    // Emptied: it accepts new requests at both ends again.
    queue.push(requests[removed]);
    CHECK(tagsInOrder(queue) == std::vector<int>{removed});
  }
}

TEST_CASE("a request never posted is not removed", "[posted]") {
  PostedQueue queue;
  Request a(Request::Kind::Recv), b(Request::Kind::Recv);
  queue.push(a);
  CHECK_FALSE(queue.remove(b));
  CHECK(tagsInOrder(queue).size() == 1);
}
