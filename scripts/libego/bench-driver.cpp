// Arbiter's benchmark driver for libego (https://github.com/lukaszlew/libego, tag 0.1.127), built by
// scripts/build-libego: libego's own light playouts from the empty board, counted on request, so that
// `cargo bench -p arbiter --bench perft` can time them beside Arbiter's in the same run.
//
// Protocol, one request a line on standard input: a playout count N answers
// "done N <black wins> <white wins> <moves played>"; "size" answers the board size; "quit" (or the
// end of input) stops. Anything else answers "error: ..." and the driver goes on reading.
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>

#include "utils.cpp"
#include "fast_timer.cpp"
#include "fast_random.cpp"
#include "player.cpp"
#include "color.cpp"
#include "vertex.cpp"
#include "move.cpp"
#include "hash.cpp"
#include "board.cpp"
#include "playout.cpp"

int main() {
  static const Board empty_board;
  static Board board;
  LightPlayout playout(&board);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line == "quit") break;
    if (line == "size") {
      std::cout << "size " << board_size << std::endl;
      continue;
    }
    char* end = nullptr;
    errno = 0;
    unsigned long long n = std::strtoull(line.c_str(), &end, 10);
    if (line.empty() || *end != '\0' || errno != 0 || line[0] == '-') {
      std::cout << "error: expected a playout count, \"size\" or \"quit\", got \"" << line << "\"" << std::endl;
      continue;
    }
    unsigned long long wins[2] = {0, 0}, moves = 0;
    for (unsigned long long i = 0; i < n; i++) {
      board.load(&empty_board);
      if (playout.Run() == LightPlayout::pass_pass) {
        wins[board.playout_winner() == Player::black() ? 0 : 1]++;
      }
      moves += board.move_no;
    }
    std::cout << "done " << n << " " << wins[0] << " " << wins[1] << " " << moves << std::endl;
  }
  return 0;
}
