//! Xiangqi rules (repetition rulings included) and evaluation (being written).
