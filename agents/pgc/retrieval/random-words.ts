// A fixed list of everyday English words for negative calibration queries: questions no code document answers.
// Fixed in the source (not read from the system) so the fitted calibration is the same on every machine.

export const RANDOM_QUERY_WORDS: readonly string[] = [
  "apple", "autumn", "bakery", "balcony", "banana", "barn", "beach", "beard", "bicycle", "blanket", "blossom",
  "bottle", "bridge", "brother", "butter", "cabbage", "camel", "candle", "canyon", "carpet", "castle", "cathedral",
  "cellar", "cherry", "chimney", "circus", "cliff", "cloud", "coconut", "coffee", "cottage", "cousin", "cradle",
  "crown", "cucumber", "curtain", "dancer", "daughter", "desert", "dinner", "dolphin", "donkey", "dragon",
  "dream", "eagle", "elbow", "elephant", "emerald", "evening", "farmer", "feather", "festival", "fiddle",
  "forest", "fountain", "fox", "garden", "garlic", "giraffe", "glacier", "goat", "grandmother", "grape",
  "guitar", "harbor", "harvest", "hedgehog", "helmet", "hill", "honey", "horse", "island", "jacket", "jungle",
  "kettle", "kitchen", "kitten", "ladder", "lake", "lantern", "lemon", "lettuce", "lighthouse", "lion",
  "lizard", "meadow", "melody", "mirror", "monkey", "moon", "morning", "mountain", "mushroom", "necklace",
  "nephew", "ocean", "olive", "onion", "orchard", "orchestra", "owl", "painter", "palace", "pancake", "parrot",
  "peach", "pearl", "pepper", "piano", "picnic", "pillow", "pirate", "poet", "pony", "potato", "pumpkin",
  "rabbit", "rainbow", "river", "saddle", "sailor", "sandwich", "shepherd", "shoulder", "sister", "skirt",
  "snail", "soup", "sparrow", "spinach", "spring", "squirrel", "statue", "strawberry", "summer", "sunset",
  "swan", "tiger", "tomato", "tractor", "trumpet", "tulip", "turtle", "umbrella", "uncle", "valley", "velvet",
  "village", "violin", "volcano", "wagon", "walnut", "waterfall", "wedding", "whale", "wheat", "willow",
  "winter", "wizard", "wolf", "yacht", "zebra", "brave", "calm", "cheerful", "clumsy", "cozy", "dusty",
  "eager", "fancy", "fierce", "fluffy", "gentle", "gloomy", "golden", "hungry", "jolly", "lazy", "lucky",
  "muddy", "noisy", "proud", "rusty", "salty", "shiny", "silly", "sleepy", "sour", "sunny", "tasty", "tiny",
  "wise", "bake", "bark", "bloom", "climb", "dance", "dig", "fish", "giggle", "gallop", "hike", "hum", "knit",
  "laugh", "paint", "plant", "row", "sail", "sing", "skate", "sneeze", "swim", "whistle", "wander", "yawn",
];
