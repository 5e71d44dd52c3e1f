//! What a study is ([`Study`], its [`Position`]s and [`Shard`]s) and what it keeps of each
//! solved position ([`Record`], one JSON line).

use crate::coord::goal::GoalCheck;
use crate::cube::{Cube, Goal, Metric, Move, Rng, format_moves, parse_moves, random_scramble};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// What defines a study: two files belong to the same study iff these agree. (Not the table
/// set: the lengths do not depend on it.) The same seed in two metrics is two studies of the
/// same positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    pub seed: u64,
    /// `Some(L)`: random L-move scrambles instead of uniformly random positions.
    pub moves: Option<u32>,
    /// The metric of the lengths.
    pub metric: Metric,
    /// `Some`: the lengths are distances to this goal instead of to solved.
    pub goal: Option<StudyGoal>,
}

/// The goal of a goal study (`stats lengths --goal NAME [--any-orientation]`): a named goal,
/// and whether any whole-cube orientation of it counts. Masks are not study goals: a study is
/// named by its goal, and a file name cannot hold a mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudyGoal {
    pub name: String,
    pub any_orientation: bool,
}

impl StudyGoal {
    /// The goal as each solution is checked against it. Refused: an unknown name, and a goal
    /// with a precondition (`ll`, `pll`, `oll`), which random positions do not meet.
    pub fn check(&self) -> Result<GoalCheck, String> {
        let goal = Goal::named(&self.name).map_err(|e| e.to_string())?;
        if let Some(pre) = goal.requires() {
            return Err(format!(
                "goal {} starts from a position that meets {}, and a study's random positions \
                 do not",
                goal.name(),
                pre.name()
            ));
        }
        Ok(GoalCheck {
            goal,
            any_orientation: self.any_orientation,
        })
    }

    /// The part of a study's name that says its goal: `-goal-{name}[-any]`.
    fn suffix(&self) -> String {
        let any = if self.any_orientation { "-any" } else { "" };
        format!("-goal-{}{any}", self.name)
    }
}

impl fmt::Display for Study {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed {}, ", self.seed)?;
        match self.moves {
            None => write!(f, "random positions")?,
            Some(l) => write!(f, "{l}-move scrambles")?,
        }
        if let Some(g) = &self.goal {
            write!(f, ", distances to goal {}", g.name)?;
            if g.any_orientation {
                write!(f, " in any orientation")?;
            }
        }
        if !self.metric.is_htm() {
            write!(f, ", lengths in {}", self.metric.unit())?;
        }
        Ok(())
    }
}

/// One position of a study, as drawn from its seed.
#[derive(Clone, Debug)]
pub struct Position {
    pub index: u64,
    pub cube: Cube,
    /// The scramble that made it (scramble studies only).
    pub scramble: Option<Vec<Move>>,
}

impl Study {
    /// The study's positions 0, 1, 2, … in order (an endless iterator).
    pub fn positions(&self) -> impl Iterator<Item = Position> + use<> {
        let mut rng = Rng::new(self.seed);
        let moves = self.moves;
        (0u64..).map(move |index| match moves {
            None => Position {
                index,
                cube: Cube::random(&mut rng),
                scramble: None,
            },
            Some(l) => {
                let seq = random_scramble(&mut rng, l as usize);
                Position {
                    index,
                    cube: Cube::from_moves(&seq),
                    scramble: Some(seq),
                }
            }
        })
    }

    /// The base name of the study's files: `lengths-seed{S}` (`-moves{L}` for scrambles,
    /// `-goal-{name}[-any]` for a goal, `-qtm` in the quarter-turn metric).
    pub fn name(&self) -> String {
        let mut moves = self.moves.map_or(String::new(), |l| format!("-moves{l}"));
        moves += &self.goal.as_ref().map_or(String::new(), StudyGoal::suffix);
        // Named as the metric's table twins are (`-qtm`; nothing in HTM, which came first).
        let metric = self.metric.declaration().table_suffix;
        format!("lengths-seed{}{moves}{metric}", self.seed)
    }

    /// Checks that `moves` take `cube` where the study's lengths end: solved, or a position
    /// that meets its goal.
    pub fn reached(&self, cube: &Cube, moves: &[Move]) -> Result<(), String> {
        match &self.goal {
            None if !crate::solvers::solves(cube, moves) => {
                Err("the solution does not solve the input".into())
            }
            Some(g) if !g.check()?.holds(&cube.apply_seq(moves)) => Err(format!(
                "the solution does not take the input to goal {}{}",
                g.name,
                if g.any_orientation {
                    " in any orientation"
                } else {
                    ""
                }
            )),
            _ => Ok(()),
        }
    }

    /// The default output file of a (shard of a) study:
    /// `results/lengths-seed{S}[-moves{L}][-goal-{name}[-any]][-qtm][-shard{K}of{N}].jsonl`.
    pub fn default_out(&self, shard: Option<Shard>) -> PathBuf {
        let shard = shard.map_or(String::new(), |s| format!("-shard{}of{}", s.k, s.n));
        PathBuf::from(format!("results/{}{shard}.jsonl", self.name()))
    }
}

/// A shard `K/N` of a study: the positions with `index mod N == K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Does position `index` belong to this shard?
    pub fn contains(&self, index: u64) -> bool {
        index % self.n == self.k
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not K/N (e.g. 0/4: shard 0 of 4)"))?;
        let number = |t: &str, what: &str| {
            t.trim().parse::<u64>().map_err(|_| {
                format!("{s:?}: {what} {t:?} is not a whole number (expected K/N, e.g. 0/4)")
            })
        };
        let (k, n) = (number(k, "K")?, number(n, "N")?);
        if n == 0 {
            return Err(format!("{s:?}: N must be at least 1"));
        }
        if k >= n {
            return Err(format!(
                "{s:?}: K must be below N (the shards of N are 0/N to {}/N)",
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }
}

/// One finished position of a study: one line of a study file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub index: u64,
    pub seed: u64,
    /// Positions in the whole study (all shards), as asked for by the run that wrote the line.
    pub count: u64,
    /// The table set that solved it, as given on the command line (`huge`, `huge,sym48`, …).
    pub set: String,
    /// `Some(L)`: the position is a random L-move scramble, not a uniformly random position.
    pub moves: Option<u32>,
    /// The scramble of a scramble study.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scramble: Option<String>,
    /// The position as a facelet string.
    pub input: String,
    pub solution: String,
    /// The solution's length in [`Record::metric`].
    pub length: usize,
    /// The metric of the study (absent in half-turn files, which predate it).
    #[serde(default, skip_serializing_if = "Metric::is_htm")]
    pub metric: Metric,
    /// The goal of a goal study (absent when the goal is solved): `length` is the distance
    /// to it, and the solution takes the input to a position that meets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// The goal counts in any whole-cube orientation (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_orientation: bool,
    pub optimal: bool,
    pub nodes: u64,
    pub seconds: f64,
    /// The proof's last iteration was not run: a two-phase solution of the proven lower
    /// bound's length ended it (`search::witness`); `nodes` are those of the complete
    /// iterations, `seconds` include the witness's. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub witnessed: bool,
    pub threads: usize,
    pub dual: bool,
    /// How many optimal solutions the position has (canonical sequences), when they were
    /// counted (`stats lengths --count-solutions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal_solutions: Option<u64>,
}

impl Record {
    /// The study the record belongs to.
    pub fn study(&self) -> Study {
        Study {
            seed: self.seed,
            moves: self.moves,
            metric: self.metric,
            goal: self.goal.as_ref().map(|name| StudyGoal {
                name: name.clone(),
                any_orientation: self.any_orientation,
            }),
        }
    }

    /// Checks the record by itself: a valid input that the solution solves (or takes to its
    /// goal), in `length` moves, proved optimal.
    pub fn check(&self) -> Result<(), String> {
        let cube = Cube::from_facelets(&self.input).map_err(|e| format!("input: {e}"))?;
        let moves = parse_moves(&self.solution).map_err(|e| format!("solution: {e}"))?;
        self.study().reached(&cube, &moves)?;
        let length = self.metric.length(&moves);
        if length != self.length {
            return Err(format!(
                "length {} but the solution has {length} {}",
                self.length,
                self.metric.unit_for(length)
            ));
        }
        if !self.optimal {
            return Err("not proved optimal (\"optimal\": false)".into());
        }
        if self.optimal_solutions == Some(0) {
            return Err("\"optimal_solutions\": 0, but a solution is recorded".into());
        }
        if self.index >= self.count {
            return Err(format!(
                "index {} is not below count {}",
                self.index, self.count
            ));
        }
        Ok(())
    }

    /// The record of a finished solve of `position` with table set `set`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        study: &Study,
        set: &str,
        count: u64,
        position: &Position,
        solution: &[Move],
        nodes: u64,
        seconds: f64,
        threads: usize,
        dual: bool,
    ) -> Record {
        Record {
            index: position.index,
            seed: study.seed,
            count,
            set: set.to_string(),
            moves: study.moves,
            scramble: position.scramble.as_deref().map(format_moves),
            input: position.cube.to_facelets(),
            solution: format_moves(solution),
            length: study.metric.length(solution),
            metric: study.metric,
            goal: study.goal.as_ref().map(|g| g.name.clone()),
            any_orientation: study.goal.as_ref().is_some_and(|g| g.any_orientation),
            optimal: true,
            nodes,
            seconds,
            witnessed: false,
            threads,
            dual,
            optimal_solutions: None,
        }
    }
}
