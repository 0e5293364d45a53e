import Goban from "./Goban.js";
import BoundedGoban from "./BoundedGoban.js";

export { Goban, BoundedGoban };
